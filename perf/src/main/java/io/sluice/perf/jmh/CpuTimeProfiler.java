package io.sluice.perf.jmh;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler for a shared, noisy machine: next to each iteration's throughput it reports the
 * throughput per CPU-second the benchmark JVM got ({@code ·cpu.thrpt} = score x wall time / process
 * CPU time), so that time other processes took from this one's core does not count against it.
 * Process CPU time includes JIT and GC threads, so the figure errs low, never high; caches that other
 * processes evict between time slices still slow it down. Use with {@code -prof
 * io.sluice.perf.jmh.CpuTimeProfiler} on single-threaded benchmarks in throughput mode.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long wallStart;
    private long cpuStart;

    @Override
    public String getDescription() {
        return "throughput per CPU-second of the benchmark JVM, for machines shared with other processes";
    }

    @Override
    public void beforeIteration(final BenchmarkParams benchmarkParams, final IterationParams iterationParams) {
        cpuStart = os.getProcessCpuTime();
        wallStart = System.nanoTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(final BenchmarkParams benchmarkParams,
                                                       final IterationParams iterationParams,
                                                       final IterationResult result) {
        final long wall = System.nanoTime() - wallStart;
        final long cpu = os.getProcessCpuTime() - cpuStart;
        final Result<?> primary = result.getPrimaryResult();
        final double perCpu = cpu <= 0 ? Double.NaN : primary.getScore() * wall / cpu;
        return List.of(new ScalarResult("cpu.thrpt", perCpu, primary.getScoreUnit(), AggregationPolicy.AVG));
    }
}
