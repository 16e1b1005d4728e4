package io.sluice.perf.jmh;

import io.sluice.format.ColumnVector;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.RangeBucketFunction;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Range against hash bucketing of one 8192-row long key column, in nanoseconds per row. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public class BucketFunctionBenchmark {
    @Param({"6", "64"})
    int buckets;

    ColumnVector[] keys;
    BucketFunction range;
    BucketFunction hash;
    int[] out;

    @Setup
    public void setup() {
        keys = new ColumnVector[] {BenchmarkData.uniform(1, 7)[0].column(0)};
        range = new RangeBucketFunction(TypeKind.INT64, BenchmarkData.equalCuts(buckets, BenchmarkData.KEY_SPAN));
        hash = new HashBucketFunction(buckets, TypeKind.INT64);
        out = new int[BenchmarkData.ROWS];
    }

    @Benchmark
    @OperationsPerInvocation(BenchmarkData.ROWS)
    public int[] range() {
        range.buckets(keys, BenchmarkData.ROWS, out);
        return out;
    }

    @Benchmark
    @OperationsPerInvocation(BenchmarkData.ROWS)
    public int[] hash() {
        hash.buckets(keys, BenchmarkData.ROWS, out);
        return out;
    }
}
