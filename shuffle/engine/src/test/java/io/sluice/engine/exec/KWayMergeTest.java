package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The k-way merge of sorted runs hands out the same indexes, in the same order, as a stable sort
 * of the runs laid end to end by a plain Java comparator, cut at the limit.
 */
class KWayMergeTest {
    /** Merges runs of values (each sorted here first) and checks it against {@link List#sort}. */
    private static void assertMergesLikeASort(final List<long[]> runs, final long limit) {
        final int[] starts = new int[runs.size() + 1];
        int total = 0;
        for (int r = 0; r < runs.size(); r++) {
            total += runs.get(r).length;
            starts[r + 1] = total;
        }
        final long[] values = new long[total];
        for (int r = 0; r < runs.size(); r++) {
            final long[] run = runs.get(r).clone();
            Arrays.sort(run);
            System.arraycopy(run, 0, values, starts[r], run.length);
        }
        final List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            expected.add(i);
        }
        expected.sort(Comparator.comparingLong(i -> values[i]));
        final int wanted = limit == Sort.NO_LIMIT ? total : (int) Math.min(limit, total);
        final int[] merged = KWayMerge.order(starts, limit, (a, b) -> Long.compare(values[a], values[b]));
        assertThat(merged).as("merge of %s runs, limit %s", runs.size(), limit)
                .containsExactly(expected.subList(0, wanted).stream().mapToInt(Integer::intValue).toArray());
    }

    @Property(tries = 300)
    void mergedRunsEqualAStableSortOfThemAll(
            @ForAll @Size(max = 9) final List<@Size(max = 40) List<@LongRange(min = -5, max = 5) Long>> runs,
            @ForAll @IntRange(min = -1, max = 200) final int limit) {
        final List<long[]> arrays = new ArrayList<>();
        for (final List<Long> run : runs) {
            arrays.add(run.stream().mapToLong(Long::longValue).toArray());
        }
        assertMergesLikeASort(arrays, limit);
    }

    @Test
    void edgeCases() {
        assertMergesLikeASort(List.of(), Sort.NO_LIMIT);
        assertMergesLikeASort(List.of(new long[0], new long[0]), Sort.NO_LIMIT);
        assertMergesLikeASort(List.of(new long[] {3, 1, 2}), Sort.NO_LIMIT);
        assertMergesLikeASort(List.of(new long[0], new long[] {5, 4}, new long[0], new long[] {4}, new long[0]),
                Sort.NO_LIMIT);
        assertMergesLikeASort(List.of(new long[] {7, 7, 7}, new long[] {7}, new long[] {7, 7}), Sort.NO_LIMIT);
        assertMergesLikeASort(List.of(new long[] {9}, new long[] {1}, new long[] {5}, new long[] {3}), Sort.NO_LIMIT);
        assertMergesLikeASort(List.of(new long[] {2, 4}, new long[] {1, 3}), 0);
        assertMergesLikeASort(List.of(new long[] {2, 4}, new long[] {1, 3}), 3);
        assertMergesLikeASort(List.of(new long[] {2, 4}, new long[] {1, 3}), 1_000);
    }

    @Test
    void runOffsetsThatDescendAreRefused() {
        assertThatThrownBy(() -> KWayMerge.order(new int[] {0, 4, 2}, Sort.NO_LIMIT, Integer::compare))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("run 1 ends at 2 before it starts at 4");
    }
}
