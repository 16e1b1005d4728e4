package io.sluice.perf.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples the JVM's used heap every millisecond on a daemon thread while some work runs. The
 * highest value seen is the peak heap: live data plus garbage not yet collected, so an upper bound
 * of what the work needs. The baseline is the heap used right after a {@code System.gc()} before
 * the sampling starts (the JVM, the store's metadata, whatever stays live between queries).
 * Native memory (Aeron's buffers, DuckDB) is not heap and is not counted.
 */
public final class HeapSampler {
    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final AtomicLong peak = new AtomicLong();
    private final long baseline;
    private final Thread thread;
    private volatile boolean running = true;

    /** The peak and the baseline of one sampling, in bytes. */
    public record Peak(long peakBytes, long baselineBytes) {
        /** Peak minus baseline: the heap the sampled work added at its highest, at least 0. */
        public long aboveBaselineBytes() {
            return Math.max(0, peakBytes - baselineBytes);
        }
    }

    private HeapSampler() {
        System.gc();
        baseline = memory.getHeapMemoryUsage().getUsed();
        peak.set(baseline);
        thread = new Thread(() -> {
            while (running) {
                peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                LockSupport.parkNanos(PERIOD_NANOS);
            }
        }, "heap-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Collects garbage, records the baseline and starts sampling. */
    public static HeapSampler start() {
        return new HeapSampler();
    }

    /** Stops sampling and returns what it saw. */
    public Peak stop() {
        running = false;
        try {
            thread.join(1000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
        return new Peak(peak.get(), baseline);
    }
}
