package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.ColumnVector;
import io.sluice.format.LongVector;
import io.sluice.format.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One hash function shared by the pipelines of a join must bucket alike on every thread. */
class HashBucketFunctionConcurrencyTest {
    @Test
    void sharedInstanceGivesTheSameBucketsAsPrivateOnes() throws Exception {
        final HashBucketFunction shared = new HashBucketFunction(64, TypeKind.INT64, TypeKind.INT64);
        final int threads = 4;
        final int rows = 8192;
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            final List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final long seed = t;
                results.add(pool.submit(() -> {
                    final Random random = new Random(seed);
                    final HashBucketFunction own = new HashBucketFunction(64, TypeKind.INT64, TypeKind.INT64);
                    final int[] viaShared = new int[rows];
                    final int[] viaOwn = new int[rows];
                    for (int round = 0; round < 200; round++) {
                        final long[] a = new long[rows];
                        final long[] b = new long[rows];
                        for (int i = 0; i < rows; i++) {
                            a[i] = random.nextLong();
                            b[i] = random.nextLong();
                        }
                        final ColumnVector[] keys = {LongVector.ofInt64(a), LongVector.ofInt64(b)};
                        shared.buckets(keys, rows, viaShared);
                        own.buckets(keys, rows, viaOwn);
                        for (int i = 0; i < rows; i++) {
                            if (viaShared[i] != viaOwn[i]) {
                                return false;
                            }
                        }
                    }
                    return true;
                }));
            }
            for (final Future<Boolean> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
