package io.sluice.shuffle.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.HeavyKeyBucketFunction;
import io.sluice.shuffle.HeavyKeyDispatch;
import io.sluice.shuffle.HeavyKeySet;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Per-key dispatch through the shuffle operator: every row reaches exactly the buckets a reference routing
 * gives it. On the large side a heavy key's row reaches one bucket (any: the other side's rows of that key are on
 * each), and a batch of only heavy rows fills this CN's buckets evenly; on the other side it reaches every bucket
 * once; a null key that
 * cannot match reaches none; every other row reaches its owner bucket (range or hash) once. Whatever the
 * topology, the pool (tight pools suspend and resume a split batch mid-bucket) and the batches.
 */
class PerKeyDispatchPropertyTest {
    private static final Schema SCHEMA = Schema.parse("k:int64,id:int64,s:string");
    private static final int DOMAIN = 40;

    @Property(tries = 200)
    void everyRowReachesTheBucketsOfTheReferenceRouting(@ForAll final long seed, @ForAll final HeavyKeyDispatch side,
                                                        @ForAll final boolean hash, @ForAll final boolean dropNulls,
                                                        @ForAll final boolean tightPool) {
        final SplittableRandom random = new SplittableRandom(seed);
        final Topology topology = new Topology(1 + random.nextInt(4), 1 + random.nextInt(4));
        final int buckets = topology.bucketCount();
        final int cn = random.nextInt(topology.cnCount());
        final BucketFunction owner = hash || buckets == 1 ? new HashBucketFunction(buckets, TypeKind.INT64)
                : new RangeBucketFunction(TypeKind.INT64, cuts(random, buckets));
        final TreeSet<Long> chosen = new TreeSet<>();
        final int heavyCount = 1 + random.nextInt(3);
        while (chosen.size() < heavyCount) {
            chosen.add((long) random.nextInt(DOMAIN));
        }
        final long[] heavyKeys = chosen.stream().mapToLong(Long::longValue).toArray();
        final HeavyKeyBucketFunction function = side == HeavyKeyDispatch.REPLICATE
                ? HeavyKeyBucketFunction.replicate(owner, TypeKind.INT64, HeavyKeySet.of(heavyKeys))
                : HeavyKeyBucketFunction.localFirst(owner, TypeKind.INT64, HeavyKeySet.of(heavyKeys),
                        topology.firstBucketOf(cn), topology.coresPerCn(), dropNulls);

        final List<Batch> batches = new ArrayList<>();
        final Map<Long, Long> keyOf = new HashMap<>();
        final Map<Long, Integer> ownerOf = new HashMap<>();
        long nextId = 0;
        final int batchCount = 1 + random.nextInt(5);
        for (int b = 0; b < batchCount; b++) {
            final int rows = random.nextInt(3000);
            final long[] keys = new long[rows];
            final long[] ids = new long[rows];
            final String[] strings = new String[rows];
            final long[] nulls = new long[NullMask.words(Math.max(rows, 1))];
            final double heavyShare = random.nextDouble();
            for (int r = 0; r < rows; r++) {
                keys[r] = random.nextDouble() < heavyShare ? heavyKeys[random.nextInt(heavyKeys.length)]
                        : random.nextInt(DOMAIN);
                ids[r] = nextId++;
                strings[r] = "row " + ids[r];
                if (random.nextInt(10) == 0) {
                    NullMask.setNull(nulls, r);
                    keyOf.put(ids[r], null);
                } else {
                    keyOf.put(ids[r], keys[r]);
                }
            }
            final LongVector key = new LongVector(ColumnType.INT64, keys, rows, nulls);
            final int[] owners = new int[rows];
            owner.buckets(new ColumnVector[] {key}, rows, owners);
            for (int r = 0; r < rows; r++) {
                ownerOf.put(ids[r], owners[r]);
            }
            batches.add(Batch.of(key, LongVector.ofInt64(ids), StringVector.of(strings)));
        }

        final Map<Long, List<Integer>> reached = new HashMap<>();
        final ShuffleOptions options = ShuffleOptions.defaults().withPoolBytes(tightPool
                ? 2 * ShuffleOperator.minimumPoolBytes(SCHEMA) : ShuffleOptions.defaults().poolBytes());
        ShuffleOperator.run(SCHEMA, new int[] {0}, function, options, batches, batch -> {
            assertThat(batch.shuffleIdx()).isBetween(0, buckets - 1);
            final LongVector ids = (LongVector) batch.column(1);
            for (int r = 0; r < batch.rowCount(); r++) {
                reached.computeIfAbsent(ids.values()[r], id -> new ArrayList<>()).add(batch.shuffleIdx());
            }
        });

        for (long id = 0; id < nextId; id++) {
            final Long key = keyOf.get(id);
            final List<Integer> got = reached.getOrDefault(id, List.of());
            final boolean heavy = key != null && chosen.contains(key);
            if (key == null && (side == HeavyKeyDispatch.REPLICATE || dropNulls)) {
                assertThat(got).as("row %d, null key", id).isEmpty();
            } else if (heavy && side == HeavyKeyDispatch.REPLICATE) {
                final List<Integer> sorted = new ArrayList<>(got);
                sorted.sort(null);
                final List<Integer> every = new ArrayList<>();
                for (int b = 0; b < buckets; b++) {
                    every.add(b);
                }
                assertThat(sorted).as("row %d, heavy key %d copied", id, key).isEqualTo(every);
            } else if (heavy || key == null) {
                assertThat(got).as("row %d, key %s placed once", id, key).hasSize(1);
            } else {
                assertThat(got).as("row %d, key %d to its owner", id, key).containsExactly(ownerOf.get(id));
            }
        }
    }

    @Property(tries = 50)
    void aBatchOfOnlyHeavyRowsIsNeverTaggedWhole(@ForAll final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final Topology topology = new Topology(2, 2 + random.nextInt(3));
        final long heavy = random.nextInt(DOMAIN);
        final HeavyKeyBucketFunction function = HeavyKeyBucketFunction.localFirst(
                new HashBucketFunction(topology.bucketCount(), TypeKind.INT64), TypeKind.INT64, HeavyKeySet.of(heavy),
                topology.firstBucketOf(1), topology.coresPerCn(), true);
        final int rows = 100 + random.nextInt(5000);
        final long[] keys = new long[rows];
        Arrays.fill(keys, heavy);
        final long[] perBucket = new long[topology.bucketCount()];
        ShuffleOperator.run(Schema.parse("k:int64"), new int[] {0}, function, ShuffleOptions.defaults(),
                List.of(Batch.of(LongVector.ofInt64(keys)).withSortedBy(0)), batch -> perBucket[batch.shuffleIdx()]
                        += batch.rowCount());
        for (int c = 0; c < topology.coresPerCn(); c++) {
            assertThat(perBucket[topology.firstBucketOf(1) + c]).isBetween((long) rows / topology.coresPerCn(),
                    (long) rows / topology.coresPerCn() + 1);
        }
    }

    private static long[] cuts(final SplittableRandom random, final int buckets) {
        final TreeSet<Long> cuts = new TreeSet<>();
        while (cuts.size() < buckets - 1) {
            cuts.add((long) random.nextInt(-5, DOMAIN + 5));
        }
        return cuts.stream().mapToLong(Long::longValue).toArray();
    }
}
