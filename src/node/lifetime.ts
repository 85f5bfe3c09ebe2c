/**
 * One owner of everything that must not outlive its user: agent processes,
 * worker threads' agent processes, temporary files.
 *
 * A `ResourceScope` holds resources. `dispose()` releases them (newest
 * first) without exiting, so a long-lived server or the app's main process
 * can end one evaluation and keep running; a disposed scope refuses new
 * resources. Scopes nest: `scope.child()` is disposed with its parent.
 *
 * When the process exits while resources are still held (the CLI's Ctrl+C
 * handler calls process.exit, an uncaught error), one exit hook, installed
 * once for the whole process, runs every live resource's synchronous
 * `onExit` (SIGKILL a child, unlink a temp file): an 'exit' handler cannot
 * wait for anything.
 *
 * `processScope` is the root: services use it unless their caller gives
 * them a scope of their own.
 */

export interface Resource {
  /** Releases the resource; may wait (a child's exit, a worker's termination). */
  dispose(): void | Promise<void>;
  /** The synchronous last resort when the process exits first; must not throw. */
  onExit(): void;
}

/** Removes the resource from its scope without disposing it (it was released normally). */
export type Release = () => void;

export class ResourceScope {
  private readonly resources = new Set<Resource>();
  private disposed = false;

  private constructor(private readonly parent: ResourceScope | undefined) {}

  /** A root scope (for tests; services use `processScope` or a child of it). */
  static root(): ResourceScope {
    return new ResourceScope(undefined);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** How many resources the scope holds now (children count as one). */
  get size(): number {
    return this.resources.size;
  }

  /**
   * Holds a resource until its Release is called or the scope is disposed.
   * In a disposed scope the resource is released at once (its `onExit`
   * runs): nothing may start living in a scope that has ended.
   */
  add(resource: Resource): Release {
    if (this.disposed) {
      safely(() => resource.onExit());
      return () => undefined;
    }
    installExitHook();
    this.resources.add(resource);
    return () => void this.resources.delete(resource);
  }

  /** A scope disposed with this one (one evaluation inside a server). */
  child(): ResourceScope {
    const scope = new ResourceScope(this);
    const release = this.add({ dispose: () => scope.dispose(), onExit: () => scope.runExitHooks() });
    scope.releaseFromParent = release;
    return scope;
  }

  private releaseFromParent: Release | undefined;

  /** Releases every resource, newest first; errors are swallowed (best effort), the scope ends. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const all = [...this.resources].reverse();
    this.resources.clear();
    for (const resource of all) {
      try {
        await resource.dispose();
      } catch {
        // best effort: the next resource must still be released
      }
    }
    this.releaseFromParent?.();
  }

  /** The exit path: every live resource's synchronous onExit. */
  runExitHooks(): void {
    const all = [...this.resources].reverse();
    this.resources.clear();
    for (const resource of all) safely(() => resource.onExit());
  }

  /** Whether this scope is `ancestor` or inside it. */
  within(ancestor: ResourceScope): boolean {
    return this === ancestor || (this.parent?.within(ancestor) ?? false);
  }
}

function safely(run: () => void): void {
  try {
    run();
  } catch {
    // an exit hook must never throw
  }
}

/** The process's root scope. */
export const processScope: ResourceScope = ResourceScope.root();

let exitHookInstalled = false;

// The only process 'exit' listener of the services: 'exit' handlers run
// synchronously, and kill()/unlinkSync() are synchronous, so this covers
// every ordinary exit, including process.exit from the CLI's SIGINT handler.
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => processScope.runExitHooks());
}

/** A held child process: SIGKILL on exit; `dispose` kills it too (the owner waits for the reap itself). */
export function processResource(kill: () => void): Resource {
  return { dispose: kill, onExit: kill };
}
