// Who to tell when a signal aborts: one listener per signal, not one per
// request (#37: an AbortSignal's addEventListener and removeEventListener, per
// request of a bulk run, where every request carries the run's one Ctrl-C
// signal, was EventTarget's slow path). Told in the order they came, as
// listeners are.
//
// The watchers of a signal are a doubly linked list whose links are cleared
// when a watcher leaves, not a Set (#37 session 5). A Set that a bulk run adds
// to and deletes from per request is rehashed every few requests, and V8 keeps
// each old table pointing at the new one, holding the watchers it had: once a
// full GC had promoted one table (every full GC promotes what is live in the
// young generation), each scavenge kept the next table alive from that dead
// one, and with it every request's closure (its ClientRequest, response, body,
// timers): ~7 KB a request promoted to the old space until the next full GC,
// and the old space grew with the run (docs/performance.md). A link that
// leaves here points at nothing, so a dead one holds no later request.

/** One watcher: a link of its signal's list while it watches. */
export interface AbortWatch {
  readonly tell: () => void;
  prev: AbortWatch | undefined;
  next: AbortWatch | undefined;
  /** Its list while it watches; undefined once it left (or was told). */
  list: Watchers | undefined;
}

interface Watchers {
  head: AbortWatch | undefined;
  tail: AbortWatch | undefined;
}

const bySignal = new WeakMap<AbortSignal, Watchers>();

/** `tell` is called once if `signal` aborts before `unwatchAbort` of what this returns. */
export function watchAbort(signal: AbortSignal, tell: () => void): AbortWatch {
  let list = bySignal.get(signal);
  if (!list) {
    const made: Watchers = (list = { head: undefined, tail: undefined });
    bySignal.set(signal, made);
    signal.addEventListener('abort', () => tellAll(made), { once: true });
  }
  const watch: AbortWatch = { tell, prev: list.tail, next: undefined, list };
  if (list.tail) list.tail.next = watch;
  else list.head = watch;
  list.tail = watch;
  return watch;
}

/** No longer told; its links cleared (see the top). Again, or after it was told: nothing. */
export function unwatchAbort(watch: AbortWatch): void {
  const list = watch.list;
  if (!list) return;
  if (watch.prev) watch.prev.next = watch.next;
  else list.head = watch.next;
  if (watch.next) watch.next.prev = watch.prev;
  else list.tail = watch.prev;
  watch.prev = watch.next = watch.list = undefined;
}

/** The abort: every watcher of the moment, in the order they came, each once (one that leaves meanwhile is still told, as before). */
function tellAll(list: Watchers): void {
  const told: Array<() => void> = [];
  for (let w = list.head; w;) {
    const next = w.next;
    told.push(w.tell);
    w.prev = w.next = w.list = undefined;
    w = next;
  }
  list.head = list.tail = undefined;
  for (const tell of told) tell();
}
