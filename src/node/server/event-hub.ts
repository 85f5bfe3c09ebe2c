/**
 * Server-sent events: every connected page gets every contract event. A
 * comment line every 15 s keeps proxies and idle timers from closing the
 * stream; a client that goes away is dropped, and so is one that stops
 * reading: past `maxBufferedBytes` queued for it, its stream is closed (the
 * page's EventSource reconnects and reloads its state), so a page that
 * never reads cannot make the server buffer without limit.
 */

import type { ServerResponse } from 'node:http';

const KEEPALIVE_MS = 15_000;

export class EventHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly maxBufferedBytes: number) {
    this.timer = setInterval(() => this.write(': keep-alive\n\n'), KEEPALIVE_MS);
    this.timer.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  attach(res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    res.write(': connected\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  broadcast(event: string, payload: unknown): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
  }

  close(): void {
    clearInterval(this.timer);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private write(text: string): void {
    for (const res of this.clients) {
      if (res.writableLength + text.length > this.maxBufferedBytes) {
        this.clients.delete(res);
        res.destroy();
      } else res.write(text);
    }
  }
}
