/**
 * The Kubernetes files of a plan (plan.ts): a shared volume, the run's
 * settings as a ConfigMap, a prepare Job, an Indexed Job of shards, a status
 * Job and a merge Job, and run.sh, which runs them in order, waits for each
 * Job to succeed OR fail (never `kubectl wait --for=condition=complete`
 * alone: it never returns for a failed Job), and re-submits only the shards
 * `evaluation status` lists as unfinished.
 *
 * Every pod runs as uid 1000 without privileges and requests resources; the
 * shard pods are replaced only once the old pod has failed
 * (podReplacementPolicy: Failed: never two writers, though the lock would
 * refuse the second), each index has its own retry budget
 * (backoffLimitPerIndex), disruptions (eviction, preemption, node drain)
 * are not counted (podFailurePolicy on DisruptionTarget), and a refusal that
 * a retry cannot fix (exit 2, 3, 5, 6) fails its index at once.
 */

import { EMBERBENCH_BIN, API_KEY_ENV, K8S_MOUNT, runName, type PlanFile, type PlanOptions } from './plan-shared.js';

const q = (s: string): string => JSON.stringify(s);

/** Indents a block of lines. */
function indent(lines: readonly string[], by: number): string[] {
  return lines.map((l) => (l === '' ? l : ' '.repeat(by) + l));
}

const POD_SECURITY = ['securityContext:', '  runAsNonRoot: true', '  runAsUser: 1000', '  runAsGroup: 1000', '  fsGroup: 1000', '  seccompProfile:', '    type: RuntimeDefault'];
const CONTAINER_SECURITY = ['securityContext:', '  allowPrivilegeEscalation: false', '  readOnlyRootFilesystem: true', '  capabilities:', '    drop: ["ALL"]'];

interface PodSpec {
  readonly container: string;
  readonly script: readonly string[];
  readonly cpu: string;
  readonly memory: string;
  readonly env: readonly string[];
  readonly configMap?: string;
}

/** A Job's pod template (`spec.template`), at indentation 2. */
function podTemplate(o: PlanOptions, run: string, pod: PodSpec, extraSpec: readonly string[]): string[] {
  const mounts = [`- name: work`, `  mountPath: ${K8S_MOUNT}`, `- name: tmp`, `  mountPath: /tmp`, ...(pod.configMap === undefined ? [] : ['- name: run-config', '  mountPath: /etc/ember-run', '  readOnly: true'])];
  const volumes = [
    '- name: work',
    '  persistentVolumeClaim:',
    '    claimName: ember-work',
    '- name: tmp',
    '  emptyDir: {}',
    ...(pod.configMap === undefined ? [] : ['- name: run-config', '  configMap:', `    name: ${pod.configMap}`]),
  ];
  return indent(
    [
      'template:',
      '  metadata:',
      '    labels:',
      `      app.kubernetes.io/name: ember-workbench`,
      `      ember.run: ${run}`,
      '  spec:',
      '    restartPolicy: Never',
      ...indent(extraSpec, 4),
      ...indent(POD_SECURITY, 4),
      '    containers:',
      `      - name: ${pod.container}`,
      `        image: ${q(o.image)}`,
      '        imagePullPolicy: IfNotPresent',
      '        command: ["/bin/sh", "-c"]',
      '        args:',
      '          - |',
      ...indent(pod.script, 12),
      ...(pod.env.length === 0 ? [] : ['        env:', ...indent(pod.env, 10)]),
      '        resources:',
      '          requests:',
      `            cpu: ${q(pod.cpu)}`,
      `            memory: ${pod.memory}`,
      '          limits:',
      `            memory: ${pod.memory}`,
      ...indent(CONTAINER_SECURITY, 8),
      '        volumeMounts:',
      ...indent(mounts, 10),
      '    volumes:',
      ...indent(volumes, 6),
    ],
    2,
  );
}

function job(o: PlanOptions, run: string, name: string, comment: readonly string[], spec: readonly string[], pod: PodSpec, extraPodSpec: readonly string[] = []): string {
  return [
    ...comment.map((c) => `# ${c}`),
    'apiVersion: batch/v1',
    'kind: Job',
    'metadata:',
    `  name: ${name}`,
    '  labels:',
    `    app.kubernetes.io/name: ember-workbench`,
    `    ember.run: ${run}`,
    'spec:',
    ...indent(spec, 2),
    ...podTemplate(o, run, pod, extraPodSpec),
    '',
  ].join('\n');
}

function storage(o: PlanOptions): string {
  return [
    '# The shared volume: one per namespace, one folder per run (shard plan --run-dir).',
    '# ReadWriteMany: shards run on several nodes. Locks on it are files (exclusive create), safe on NFSv3+.',
    'apiVersion: v1',
    'kind: PersistentVolumeClaim',
    'metadata:',
    '  name: ember-work',
    'spec:',
    '  accessModes: ["ReadWriteMany"]',
    ...(o.storageClass === null ? ['  # No storageClassName: the cluster default class (give shard plan --storage-class to name one).'] : [`  storageClassName: ${o.storageClass}`]),
    '  resources:',
    '    requests:',
    '      storage: 20Gi',
    '',
  ].join('\n');
}

function configMap(run: string, settings: string): string {
  return [
    "# The run's settings; the prepare Job copies them to RUN_DIR/run.json, which evaluation status reads.",
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    `  name: ${run}`,
    'data:',
    `  run.json: ${q(settings)}`,
    '',
  ].join('\n');
}

export function kubernetesFiles(o: PlanOptions, settings: string): PlanFile[] {
  const run = runName(o.runDir);
  const dir = o.runDir;
  const cli = EMBERBENCH_BIN;
  const seeds = o.seeds.map((s) => `--seed ${s}`).join(' ');
  const suite = `--generated-suite ${dir}/batch --manifest ${dir}/manifest.json`;
  const agentConfig = o.agentConfig === null ? '' : ` --agent-config ${dir}/${o.agentConfig}`;
  const secretEnv = o.secret === null ? [] : [`- name: ${API_KEY_ENV}`, '  valueFrom:', '    secretKeyRef:', `      name: ${o.secret}`, '      key: api-key'];
  const all = Array.from({ length: o.shards }, (_, k) => String(k + 1)).join(' ');

  const prepare = job(o, run, `${run}-prepare`, ['Step 1: the run folder, its settings, the frozen batch and the manifest (each only once).'], ['backoffLimit: 2', 'ttlSecondsAfterFinished: 604800'], {
    container: 'prepare',
    cpu: '1',
    memory: '2Gi',
    env: [],
    configMap: run,
    script: [
      'set -eu',
      `mkdir -p ${dir}/shards`,
      `if [ -f ${dir}/run.json ]; then cmp /etc/ember-run/run.json ${dir}/run.json; else cp /etc/ember-run/run.json ${dir}/run.json; fi`,
      `test -d ${dir}/batch || ${cli} generated create --batch-seed ${o.batchSeed} --out ${dir}/batch --json`,
      `${cli} generated validate ${dir}/batch --json`,
      `test -f ${dir}/manifest.json || ${cli} evaluation manifest --generated-suite ${dir}/batch ${seeds} --out ${dir}/manifest.json --json`,
    ],
  });

  const shards = job(
    o,
    run,
    `${run}-shards-r1`,
    [
      'Step 2: one pod per shard. Pod k runs shard number k+1 of SHARD_LIST (run.sh re-submits only',
      'the unfinished shards as ...-shards-r2, -r3 with a shorter list). --resume: a retried pod continues its journal.',
    ],
    [
      'completionMode: Indexed',
      `completions: ${o.shards}`,
      `parallelism: ${o.shards}`,
      '# Each shard has its own retry budget; the Job fails only when all indexes have ended.',
      'backoffLimitPerIndex: 3',
      // A replacement pod starts only after the old one has failed: never two writers of one shard.
      'podReplacementPolicy: Failed',
      'podFailurePolicy:',
      '  rules:',
      '    # Eviction, preemption, a drained node: not the shard\'s fault, not counted.',
      '    - action: Ignore',
      '      onPodConditions:',
      '        - type: DisruptionTarget',
      '    # Usage, input, mismatch and output errors (exit 2, 3, 5, 6): a retry cannot fix them.',
      '    - action: FailIndex',
      '      onExitCodes:',
      '        containerName: shard',
      '        operator: In',
      '        values: [2, 3, 5, 6]',
      'ttlSecondsAfterFinished: 604800',
    ],
    {
      container: 'shard',
      cpu: String(o.jobs),
      memory: `${o.jobs * 2}Gi`,
      env: [`- name: SHARD_LIST`, `  value: ${q(all)}`, ...secretEnv],
      script: [
        'set -eu',
        'I=$(echo "$SHARD_LIST" | cut -d " " -f $((JOB_COMPLETION_INDEX + 1)))',
        '# exec: the CLI is PID 1 and gets SIGTERM itself; it stops at an episode boundary with exit 130.',
        `exec ${cli} evaluation run ${suite} --model-id ${o.modelId} --agent ${o.agent}${agentConfig} --jobs ${o.jobs} --shard "$I/${o.shards}" --out "${dir}/shards/shard-$I-of-${o.shards}.json" --resume --json`,
      ],
    },
    ['# Time to reach an episode boundary after SIGTERM (eviction, deletion).', 'terminationGracePeriodSeconds: 120'],
  );

  const status = job(o, run, `${run}-status-r1`, ['Between rounds: which shards are unfinished (run.sh reads its log, one JSON line).'], ['backoffLimit: 2', 'ttlSecondsAfterFinished: 86400'], {
    container: 'status',
    cpu: '1',
    memory: '2Gi',
    env: [],
    script: [`exec ${cli} evaluation status --run-dir ${dir} --json`],
  });

  const merge = job(o, run, `${run}-merge`, ['Step 3, the last: merge, verify and score. Replays every episode: give it CPU and memory.'], ['backoffLimit: 1', 'ttlSecondsAfterFinished: 604800'], {
    container: 'merge',
    cpu: '2',
    memory: '8Gi',
    env: [],
    script: [
      'set -eu',
      `SHARD_FILES=$(seq -f "${dir}/shards/shard-%g-of-${o.shards}.json" 1 ${o.shards})`,
      '# shellcheck disable=SC2086',
      `${cli} evaluation merge $SHARD_FILES ${suite} --out ${dir}/result.json --json`,
      `${cli} evaluation verify ${suite} --result ${dir}/result.json --require-complete --json`,
      `${cli} score --generated-suite ${dir}/batch --result ${dir}/result.json --out ${dir}/score.json --json`,
    ],
  });

  return [
    { name: '00-storage.yaml', text: storage(o), executable: false },
    { name: '05-run-config.yaml', text: configMap(run, settings), executable: false },
    { name: '10-prepare-job.yaml', text: prepare, executable: false },
    { name: '20-shards-job.yaml', text: shards, executable: false },
    { name: '25-status-job.yaml', text: status, executable: false },
    { name: '30-merge-job.yaml', text: merge, executable: false },
    { name: 'run.sh', text: runScript(o, run), executable: true },
  ];
}

function runScript(o: PlanOptions, run: string): string {
  return `#!/bin/sh
# Runs one sharded evaluation on Kubernetes (docs/sharding.md), generated by
# \`emberbench shard plan\`: prepare, then up to ROUNDS rounds of asking
# \`evaluation status\` what is unfinished and submitting a shard Job of only
# those shards, then the merge. Every Job is waited for until it succeeds OR
# fails. Safe to rerun after a failure: finished shards are kept, partial
# ones resume; the Jobs of this invocation carry its start time in their names.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=${run}
SHARDS=${o.shards}
ROUNDS=\${ROUNDS:-3}
SHARD_TIMEOUT=\${SHARD_TIMEOUT:-172800}
STAMP=\${STAMP:-$(date +%s)}
ALL=$(seq -s ' ' 1 "$SHARDS")

# wait_job NAME SECONDS: prints Complete or Failed once the Job has one of them.
wait_job() {
  deadline=$(($(date +%s) + $2))
  while :; do
    conditions=$(kubectl get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}')
    case " $conditions " in
      *" Complete "*) echo Complete; return 0 ;;
      *" Failed "*) echo Failed; return 0 ;;
    esac
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "run.sh: job $1 has neither completed nor failed after $2 s" >&2
      return 1
    fi
    sleep "\${POLL_SECONDS:-10}"
  done
}

# job_for FILE NAME [SHARD_LIST]: the Job of FILE named NAME, for these shards.
job_for() {
  if [ $# -eq 3 ]; then
    count=$(echo "$3" | wc -w | tr -d ' ')
    sed -e "s/^  name: \${RUN}-[a-z]*-r1\$/  name: $2/" \\
      -e "s/^  completions: $SHARDS\$/  completions: $count/" \\
      -e "s/^  parallelism: $SHARDS\$/  parallelism: $count/" \\
      -e "s/^\\\\( *\\\\)value: \\"$ALL\\"\$/\\\\1value: \\"$3\\"/" "$HERE/$1"
  else
    sed -e "s/^  name: \${RUN}-[a-z]*-r1\$/  name: $2/" -e "s/^  name: \${RUN}-merge\$/  name: $2/" "$HERE/$1"
  fi
}

kubectl apply -f "$HERE/00-storage.yaml" -f "$HERE/05-run-config.yaml"
kubectl apply -f "$HERE/10-prepare-job.yaml"
if [ "$(wait_job "$RUN-prepare" 3600)" != Complete ]; then
  kubectl logs "job/$RUN-prepare" >&2 || true
  echo "run.sh: the prepare Job failed" >&2
  exit 1
fi

round=0
while :; do
  job_for 25-status-job.yaml "$RUN-status-$STAMP-r$round" | kubectl apply -f -
  if [ "$(wait_job "$RUN-status-$STAMP-r$round" 3600)" != Complete ]; then
    kubectl logs "job/$RUN-status-$STAMP-r$round" >&2 || true
    echo "run.sh: the status Job failed" >&2
    exit 1
  fi
  status=$(kubectl logs "job/$RUN-status-$STAMP-r$round")
  unfinished=$(printf '%s\\n' "$status" | sed -n 's/.*"unfinished":"\\([0-9,]*\\)".*/\\1/p')
  if [ -z "$unfinished" ]; then break; fi
  if [ "$round" -ge "$ROUNDS" ]; then
    echo "run.sh: shards $unfinished are unfinished after $ROUNDS rounds; their states and holders:" >&2
    printf '%s\\n' "$status" >&2
    echo "run.sh: fix the cause (kubectl logs job/$RUN-shards-$STAMP-r$round), then run run.sh again: finished shards are kept" >&2
    exit 1
  fi
  round=$((round + 1))
  list=$(echo "$unfinished" | tr ',' ' ')
  echo "run.sh: round $round runs shards $list"
  job_for 20-shards-job.yaml "$RUN-shards-$STAMP-r$round" "$list" | kubectl apply -f -
  # Complete or Failed: either way the next status decides what is left.
  wait_job "$RUN-shards-$STAMP-r$round" "$SHARD_TIMEOUT" > /dev/null
done

job_for 30-merge-job.yaml "$RUN-merge-$STAMP" | kubectl apply -f -
outcome=$(wait_job "$RUN-merge-$STAMP" 14400)
kubectl logs "job/$RUN-merge-$STAMP"
[ "$outcome" = Complete ]
`;
}
