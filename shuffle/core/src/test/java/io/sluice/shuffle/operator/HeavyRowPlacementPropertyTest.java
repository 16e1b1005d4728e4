package io.sluice.shuffle.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.ColumnVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.HeavyKeyBucketFunction;
import io.sluice.shuffle.HeavyKeySet;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The probe rows of heavy keys balance the buckets of a whole cluster: every sender of every CN shuffles the same
 * rows with its CN's per-key function, and the fullest bucket holds no more than the least any placement of the
 * heavy rows could give it (the water level the heavy rows raise the other keys' buckets to), and no more heavy
 * rows cross CNs than the CNs whose buckets already hold more than their share must send away; to within a row per
 * bucket and batch of each sender.
 */
class HeavyRowPlacementPropertyTest {
    private static final Schema SCHEMA = Schema.parse("k:int64");
    private static final int DOMAIN = 60;

    @Property(tries = 300)
    void heavyRowsFillTheEmptiestBucketsCrossingCnsOnlyForWhatTheirOwnBucketsDoNotNeed(
            @ForAll final long seed, @ForAll final boolean hash) {
        final SplittableRandom random = new SplittableRandom(seed);
        final Topology topology = new Topology(1 + random.nextInt(6), 1 + random.nextInt(4));
        final int buckets = topology.bucketCount();
        final int cores = topology.coresPerCn();
        final BucketFunction owner = hash || buckets == 1 ? new HashBucketFunction(buckets, TypeKind.INT64)
                : new RangeBucketFunction(TypeKind.INT64, cuts(random, buckets));
        final TreeSet<Long> chosen = new TreeSet<>();
        final int heavyCount = 1 + random.nextInt(3);
        while (chosen.size() < heavyCount) {
            chosen.add((long) random.nextInt(DOMAIN));
        }
        final long[] heavyKeys = chosen.stream().mapToLong(Long::longValue).toArray();
        // Skewed light keys, so that the owner function leaves the buckets uneven for the heavy rows to fill.
        final int rows = 1 + random.nextInt(8000);
        final double heavyShare = random.nextDouble();
        final long[] keys = new long[rows];
        for (int r = 0; r < rows; r++) {
            if (random.nextDouble() < heavyShare) {
                keys[r] = heavyKeys[random.nextInt(heavyKeys.length)];
            } else {
                long k;
                do {
                    k = (long) (DOMAIN * Math.pow(random.nextDouble(), 3));
                } while (chosen.contains(k));
                keys[r] = k;
            }
        }
        final int repeats = 1 + random.nextInt(4);

        // The reference: the other keys' rows per bucket and the heavy rows, over all senders.
        final int senders = buckets;
        final int[] owners = new int[rows];
        owner.buckets(new ColumnVector[] {LongVector.ofInt64(keys)}, rows, owners);
        final long[] ownerLoad = new long[buckets];
        long heavyPerSender = 0;
        for (int r = 0; r < rows; r++) {
            if (chosen.contains(keys[r])) {
                heavyPerSender += repeats;
            } else {
                ownerLoad[owners[r]] += (long) senders * repeats;
            }
        }
        final double level = waterLevel(ownerLoad, heavyPerSender * senders);

        final long[] received = new long[buckets];
        long crossed = 0;
        for (int cn = 0; cn < topology.cnCount(); cn++) {
            for (int core = 0; core < cores; core++) {
                final HeavyKeyBucketFunction function = HeavyKeyBucketFunction.localFirst(owner, TypeKind.INT64,
                        HeavyKeySet.of(heavyKeys), topology.firstBucketOf(cn), cores, true);
                final List<Batch> batches = new ArrayList<>();
                for (int i = 0; i < repeats; i++) {
                    batches.add(Batch.of(LongVector.ofInt64(keys.clone())));
                }
                final long[] heavyTo = new long[buckets];
                ShuffleOperator.run(SCHEMA, new int[] {0}, function, ShuffleOptions.defaults(), batches, batch -> {
                    final long[] values = ((LongVector) batch.column(0)).values();
                    for (int r = 0; r < batch.rowCount(); r++) {
                        received[batch.shuffleIdx()]++;
                        if (chosen.contains(values[r])) {
                            heavyTo[batch.shuffleIdx()]++;
                        }
                    }
                });
                for (int b = 0; b < buckets; b++) {
                    crossed += b / cores == cn ? 0 : heavyTo[b];
                }
            }
        }

        final long slack = (long) senders * repeats;
        final double fullestPossible = Math.max(level, Arrays.stream(ownerLoad).max().orElse(0));
        assertThat((double) Arrays.stream(received).max().orElse(0))
                .as("rows per bucket %s, other keys %s, level %.1f", Arrays.toString(received),
                        Arrays.toString(ownerLoad), level)
                .isLessThanOrEqualTo(fullestPossible + slack);
        // Each CN's buckets need the heavy rows that raise them to the level; a CN holds cores x its senders' rows.
        double mustCross = 0;
        for (int cn = 0; cn < topology.cnCount(); cn++) {
            double need = 0;
            for (int b = cn * cores; b < (cn + 1) * cores; b++) {
                need += Math.max(0, level - ownerLoad[b]);
            }
            mustCross += Math.max(0, heavyPerSender * cores - need);
        }
        assertThat((double) crossed).as("heavy rows across CNs").isLessThanOrEqualTo(mustCross + slack * buckets);
    }

    /** The level to which {@code heavy} rows raise the buckets below it, found by bisection. */
    private static double waterLevel(final long[] load, final long heavy) {
        double low = 0;
        double high = Arrays.stream(load).max().orElse(0) + heavy;
        for (int i = 0; i < 200; i++) {
            final double mid = (low + high) / 2;
            double filled = 0;
            for (final long l : load) {
                filled += Math.max(0, mid - l);
            }
            if (filled < heavy) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return high;
    }

    private static long[] cuts(final SplittableRandom random, final int buckets) {
        final TreeSet<Long> cuts = new TreeSet<>();
        while (cuts.size() < buckets - 1) {
            cuts.add((long) random.nextInt(-5, DOMAIN + 5));
        }
        return cuts.stream().mapToLong(Long::longValue).toArray();
    }
}
