package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.IndexSort;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link IndexSort}: the stable order is the order of Java's stable sort of the indices by their keys, and
 * the first {@code k} by a heap are exactly its first {@code k}, ties kept in index order, for every
 * {@code k} from none to more than all: keys with many duplicates, in any order (ascending, descending
 * and equal runs included).
 */
class IndexSortPropertyTest {
    @Property(tries = 300)
    void theFirstKByAHeapAreTheFirstKOfTheStableOrder(
            @ForAll @Size(max = 300) final int[] rawKeys, @ForAll @IntRange(min = 1, max = 40) final int distinct,
            @ForAll @IntRange(min = 0, max = 2) final int shape, @ForAll @IntRange(min = 0, max = 320) final int k) {
        final int[] keys = Arrays.stream(rawKeys).map(v -> Math.floorMod(v, distinct)).toArray();
        if (shape == 1) {
            Arrays.sort(keys);
        } else if (shape == 2) {
            Arrays.sort(keys);
            for (int i = 0; i < keys.length / 2; i++) {
                final int t = keys[i];
                keys[i] = keys[keys.length - 1 - i];
                keys[keys.length - 1 - i] = t;
            }
        }
        final int n = keys.length;
        final int[] expected = IntStream.range(0, n).boxed()
                .sorted(Comparator.comparingInt(i -> keys[i])).mapToInt(Integer::intValue).toArray();
        final IndexSort.IndexComparator byKey = (a, b) -> Integer.compare(keys[a], keys[b]);
        assertThat(IndexSort.stableOrder(n, byKey)).containsExactly(expected);
        assertThat(IndexSort.firstStable(n, k, byKey)).containsExactly(Arrays.copyOf(expected, Math.min(k, n)));
    }
}
