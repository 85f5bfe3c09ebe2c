#!/bin/sh
# Runs the three steps in order in the current kubectl namespace; the merge
# starts only after every shard pod completed.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
kubectl apply -f "$HERE/00-storage.yaml"
kubectl apply -f "$HERE/10-prepare-job.yaml"
kubectl wait --for=condition=complete job/ember-prepare --timeout=30m
kubectl apply -f "$HERE/20-shards-indexed-job.yaml"
kubectl wait --for=condition=complete job/ember-shards --timeout=48h
kubectl apply -f "$HERE/30-merge-job.yaml"
kubectl wait --for=condition=complete job/ember-merge --timeout=2h
kubectl logs job/ember-merge
