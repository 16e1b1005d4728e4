package io.sluice.engine.exec;

import io.sluice.engine.filter.FilterPartial;

/**
 * Where a join build sends the partial runtime filters it made: in one process straight to the
 * filter's probe scans ({@link #LOCAL}); in a cluster a global or per-bucket filter goes to the
 * coordinator, which merges (or collects) every CN's partials and sends the result to every CN.
 */
public interface RuntimeFilterRouter {
    /** Delivers to this process's probe scans at once. */
    RuntimeFilterRouter LOCAL = RuntimeFilterHandle::deliver;

    /**
     * Sends one build's partials.
     *
     * @param partials by bucket of the whole topology (null for buckets not built here), or one entry for a
     *                 broadcast build
     */
    void publish(RuntimeFilterHandle handle, FilterPartial[] partials);
}
