package io.sluice.engine.exec;

/**
 * The end of a pipeline. Each worker gets its own local state ({@link #createLocal()}), fills it
 * without locks, and hands it back with {@link #combine} when it runs out of morsels; once every
 * worker has combined, {@link #finish()} runs once (the final phase of an aggregation, building a
 * join's hash table, sorting).
 */
public interface Sink<L extends BatchConsumer> {
    /** Fresh per-worker state. */
    L createLocal();

    /** Called once per worker, possibly concurrently, when the worker is done. */
    void combine(L local);

    /** Called once after all workers combined. */
    void finish();
}
