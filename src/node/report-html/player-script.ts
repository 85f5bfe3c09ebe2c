/**
 * The replay player inside the HTML report: plain browser JavaScript, no
 * libraries, no network. It reads the episodes embedded in the page
 * (`<script type="application/json" id="ember-replays">`), decodes the
 * base64 typed arrays once, and draws the selected episode on a canvas:
 * walls, floor, exits, the fire as of the current step, people coloured by
 * status. Play/pause, a scrubber, speed, single steps and the live counts.
 *
 * Kept as a string because it runs in the reader's browser, not here.
 */

export const PLAYER_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('ember-replays').textContent);
  var COLORS = { wall: '#2b3040', floor: '#f4f1ea', exit: '#2e9d5b', fire: '#e8542f', fireOld: '#b8341a',
    active: '#2563eb', evacuated: '#16a34a', dead: '#111111', stranded: '#a855f7', grid: '#e4dfd3' };
  var STATUS = ['active', 'evacuated', 'dead', 'stranded'];
  function bytes(b64) { var s = atob(b64); var out = new Uint8Array(s.length); for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i); return out; }
  function int32(b64) { var b = bytes(b64); return new Int32Array(b.buffer, b.byteOffset, b.length / 4); }
  function decode(e) {
    return { title: e.title, rows: e.rows, cols: e.cols, map: e.map, people: e.people, steps: e.steps,
      cells: int32(e.cells), status: bytes(e.status), burn: int32(e.burn), counts: int32(e.counts) };
  }
  document.querySelectorAll('[data-replay]').forEach(function (root) {
    var ep = decode(data[Number(root.getAttribute('data-replay'))]);
    var canvas = root.querySelector('canvas');
    var ctx = canvas.getContext('2d');
    var scrub = root.querySelector('input[type=range]');
    var play = root.querySelector('button[data-act=play]');
    var speed = root.querySelector('select');
    var clock = root.querySelector('[data-clock]');
    var counts = root.querySelector('[data-counts]');
    var size = Math.max(4, Math.floor(Math.min(720 / ep.cols, 480 / ep.rows)));
    canvas.width = ep.cols * size; canvas.height = ep.rows * size;
    scrub.max = String(ep.steps);
    var step = 0, playing = false, last = 0, acc = 0;
    function draw() {
      for (var r = 0; r < ep.rows; r++) {
        for (var c = 0; c < ep.cols; c++) {
          var ch = ep.map[r][c], cell = r * ep.cols + c, b = ep.burn[cell];
          var color = ch === '#' ? COLORS.wall : ch === 'E' ? COLORS.exit : COLORS.floor;
          if (b <= step) color = step - b > 3 ? COLORS.fireOld : COLORS.fire;
          ctx.fillStyle = color; ctx.fillRect(c * size, r * size, size, size);
        }
      }
      var base = step * ep.people;
      for (var i = 0; i < ep.people; i++) {
        var st = ep.status[base + i];
        if (st === 1) continue; // evacuated: off the map
        var cellIdx = ep.cells[base + i];
        var pr = Math.floor(cellIdx / ep.cols), pc = cellIdx % ep.cols;
        ctx.fillStyle = COLORS[STATUS[st]];
        ctx.beginPath(); ctx.arc(pc * size + size / 2, pr * size + size / 2, Math.max(1.5, size * 0.34), 0, Math.PI * 2); ctx.fill();
      }
      scrub.value = String(step);
      clock.textContent = 'step ' + step + ' / ' + ep.steps;
      var k = step * 4;
      counts.textContent = 'active ' + ep.counts[k] + ' \u00b7 evacuated ' + ep.counts[k + 1] + ' \u00b7 dead ' + ep.counts[k + 2] + ' \u00b7 stranded ' + ep.counts[k + 3];
    }
    function tick(now) {
      if (!playing) return;
      acc += (now - last) * Number(speed.value) / 250; last = now;
      while (acc >= 1 && step < ep.steps) { step++; acc -= 1; }
      draw();
      if (step >= ep.steps) { playing = false; play.textContent = 'Play'; return; }
      requestAnimationFrame(tick);
    }
    play.addEventListener('click', function () {
      playing = !playing; play.textContent = playing ? 'Pause' : 'Play';
      if (playing) { if (step >= ep.steps) step = 0; last = performance.now(); acc = 0; requestAnimationFrame(tick); }
    });
    root.querySelector('button[data-act=back]').addEventListener('click', function () { step = Math.max(0, step - 1); draw(); });
    root.querySelector('button[data-act=fwd]').addEventListener('click', function () { step = Math.min(ep.steps, step + 1); draw(); });
    root.querySelector('button[data-act=start]').addEventListener('click', function () { step = 0; draw(); });
    root.querySelector('button[data-act=end]').addEventListener('click', function () { step = ep.steps; draw(); });
    scrub.addEventListener('input', function () { step = Number(scrub.value); draw(); });
    draw();
  });
})();
`;
