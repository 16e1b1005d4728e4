package io.sluice.dispatch.control;

/**
 * What a query read of a store on object storage: block objects fetched (GETs and their bytes) and block files
 * served from a CN's block cache instead (and their bytes). A CN process counts its own and sends them with its
 * finished stats; the coordinator sums them over the CNs.
 *
 * @param objectGets  GET requests to object storage
 * @param objectBytes bytes those GETs read
 * @param cacheHits   block files opened from the block cache without a GET
 * @param cacheBytes  bytes of those block files
 */
public record StorageReads(long objectGets, long objectBytes, long cacheHits, long cacheBytes) {
    /** Nothing read. */
    public static final StorageReads NONE = new StorageReads(0, 0, 0, 0);

    public StorageReads {
        if (objectGets < 0 || objectBytes < 0 || cacheHits < 0 || cacheBytes < 0) {
            throw new IllegalArgumentException("storage reads are counts, never negative: got " + objectGets
                    + " GETs of " + objectBytes + " bytes, " + cacheHits + " cache hits of " + cacheBytes + " bytes");
        }
    }

    /** What was read since {@code before}, a snapshot of the same counters taken earlier. */
    public StorageReads since(final StorageReads before) {
        return new StorageReads(objectGets - before.objectGets, objectBytes - before.objectBytes,
                cacheHits - before.cacheHits, cacheBytes - before.cacheBytes);
    }

    /** Both summed; null (read no object storage) counts as nothing, and two nulls stay null. */
    public static StorageReads plus(final StorageReads a, final StorageReads b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return new StorageReads(a.objectGets + b.objectGets, a.objectBytes + b.objectBytes,
                a.cacheHits + b.cacheHits, a.cacheBytes + b.cacheBytes);
    }

    /** One line for EXPLAIN ANALYZE. */
    public String describe() {
        return "Object storage: " + objectGets + " GETs of " + objectBytes + " bytes; block cache: " + cacheHits
                + " hits of " + cacheBytes + " bytes";
    }
}
