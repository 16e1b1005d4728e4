package io.sluice.perf.cli;

/**
 * What this process read of a store on object storage, for {@code --stats-json}: block objects fetched (GETs and
 * their bytes) and block files served from the block cache (and their bytes).
 *
 * @param objectGets  GET requests to object storage (block files, and the manifests when the store was opened)
 * @param objectBytes bytes those GETs read
 * @param cacheHits   block files opened from the block cache without a GET
 * @param cacheBytes  bytes of those block files
 */
record StorageReads(long objectGets, long objectBytes, long cacheHits, long cacheBytes) {
    /** What was read since {@code before}. */
    StorageReads since(final StorageReads before) {
        return new StorageReads(objectGets - before.objectGets, objectBytes - before.objectBytes,
                cacheHits - before.cacheHits, cacheBytes - before.cacheBytes);
    }
}
