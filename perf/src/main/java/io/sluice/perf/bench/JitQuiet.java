package io.sluice.perf.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits, before a timed run, until the JIT compiler has been idle for a moment: code the previous run
 * made hot is compiled on background threads, and on a machine of few cores that work would otherwise
 * land in whichever run comes next, another engine's included. The compilation a run triggers itself
 * still counts in its own time.
 */
public final class JitQuiet {
    /** How long the JIT's total compilation time must stay unchanged. */
    private static final long QUIET_MS = 20;
    /** The longest wait: a JIT that never goes quiet does not stop the bench. */
    private static final long MAX_WAIT_MS = 2_000;

    private JitQuiet() {
    }

    /** Returns once the JIT compiled nothing for {@value #QUIET_MS} ms, or after {@value #MAX_WAIT_MS} ms. */
    public static void await() {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_WAIT_MS);
        long before = jit.getTotalCompilationTime();
        while (System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(QUIET_MS));
            final long now = jit.getTotalCompilationTime();
            if (now == before) {
                return;
            }
            before = now;
        }
    }
}
