package io.sluice.shuffle.operator;

import io.sluice.format.ColumnType;
import java.util.ArrayDeque;

/**
 * The bounded memory behind one shuffle operator's bucket buffers. Every array of every buffer
 * (filling, lent out in an emitted batch, or idle for reuse) counts against the budget; the pool
 * never allocates past it: {@link #take()} returns null and {@link #growStringBytes} false instead,
 * and the operator turns that into backpressure. Idle buffers are reused first and dropped when a
 * string column needs the room. {@link #release} may come from any thread, so every method locks;
 * each runs once per buffer (8192 rows), not per row.
 */
final class BufferPool {
    /** Largest byte array the JVM reliably allocates. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;
    private final long budget;
    private final ColumnType[] types;
    private final byte[] shapes;
    private final int initialStringBytes;
    private final long fixedBytes;
    private final ArrayDeque<BucketBuffer> idle = new ArrayDeque<>();
    private long allocatedBytes;
    private long peakBytes;
    private int lentCount;

    BufferPool(final long budget, final ColumnType[] types, final int initialStringBytes) {
        this.budget = budget;
        this.types = types.clone();
        this.shapes = new byte[types.length];
        for (int c = 0; c < types.length; c++) {
            shapes[c] = BucketBuffer.shapeOf(types[c]);
        }
        this.initialStringBytes = initialStringBytes;
        this.fixedBytes = BucketBuffer.fixedBytes(shapes, initialStringBytes);
    }

    /** Bytes one fresh buffer takes: the smallest workable budget. */
    long bufferBytes() {
        return fixedBytes;
    }

    long budget() {
        return budget;
    }

    /** An empty buffer, or null when the budget has no room for another. */
    synchronized BucketBuffer take() {
        final BucketBuffer reused = idle.pollLast();
        if (reused != null) {
            return reused;
        }
        if (allocatedBytes + fixedBytes > budget) {
            return null;
        }
        allocatedBytes += fixedBytes;
        peakBytes = Math.max(peakBytes, allocatedBytes);
        return new BucketBuffer(this, types, shapes, initialStringBytes);
    }

    /**
     * Grows a string column of a buffer towards {@code needed} bytes, doubling when the budget
     * allows and dropping idle buffers to make room. When {@code needed} does not fit the budget the
     * column still grows as far as it does, so that the caller can take the rows that fit. Whether
     * {@code needed} bytes fit now.
     */
    synchronized boolean growStringBytes(final BucketBuffer buffer, final int column, final long needed) {
        final long current = (long) buffer.usedStringBytes(column) + buffer.freeStringBytes(column);
        final long wanted = Math.min(needed, MAX_ARRAY);
        while (allocatedBytes + (wanted - current) > budget && !idle.isEmpty()) {
            allocatedBytes -= idle.pollFirst().reservedBytes();
        }
        final long reachable = Math.min(MAX_ARRAY, current + (budget - allocatedBytes));
        final long doubled = Math.min(MAX_ARRAY, 2 * current);
        final long capacity = wanted <= reachable ? Math.max(wanted, Math.min(doubled, reachable)) : reachable;
        if (capacity > current) {
            buffer.growStringBytes(column, (int) capacity);
            allocatedBytes += capacity - current;
            peakBytes = Math.max(peakBytes, allocatedBytes);
        }
        return needed <= capacity;
    }

    /** Seals a buffer's rows into a pooled batch; the buffer stays out of the pool until released. */
    synchronized Batch lend(final BucketBuffer buffer) {
        lentCount++;
        return buffer.toBatch(buffer.lend());
    }

    /** Takes back the buffer of a released batch. */
    synchronized void release(final BucketBuffer buffer, final int lease) {
        if (!buffer.isLent() || buffer.lease() != lease) {
            throw new IllegalStateException("this pooled batch was already released: release each batch taken from "
                    + "a shuffle operator exactly once, and read no batch after releasing it");
        }
        buffer.unlend();
        lentCount--;
        buffer.reset();
        idle.addLast(buffer);
    }

    /** Takes back a buffer that was taken but never emitted. */
    synchronized void giveBack(final BucketBuffer buffer) {
        buffer.reset();
        idle.addLast(buffer);
    }

    /**
     * Whether nothing can ever make room: no emitted batch is out to be released and no idle buffer is
     * left to reuse or drop. Checked under the lock, so a release racing with a refused take is seen.
     */
    synchronized boolean isStuck() {
        return lentCount == 0 && idle.isEmpty();
    }

    /** Emitted batches not yet released. */
    synchronized int lentCount() {
        return lentCount;
    }

    /** Bytes of all buffers that exist now. */
    synchronized long allocatedBytes() {
        return allocatedBytes;
    }

    /** Most bytes all buffers took at once. */
    synchronized long peakBytes() {
        return peakBytes;
    }
}
