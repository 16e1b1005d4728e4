package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.transport.ReplayGuard.Verdict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ReplayGuardTest {
    @Property(tries = 200)
    void everyNumberIsNewOnceHoweverShuffledWithinTheWindowAndRefusedAfter(
            @ForAll @IntRange(min = 1, max = 3000) final int count, @ForAll final long seed) {
        final List<Long> order = new ArrayList<>();
        for (long s = 1; s <= count; s++) {
            order.add(s);
        }
        // Shuffled within blocks of 60: no number arrives more than 59 places out of order.
        final Random random = new Random(seed);
        for (int from = 0; from < order.size(); from += 60) {
            Collections.shuffle(order.subList(from, Math.min(order.size(), from + 60)), random);
        }
        final ReplayGuard guard = new ReplayGuard(128, 4);
        for (final long s : order) {
            assertThat(guard.accept(7, s)).as("first arrival of %d", s).isEqualTo(Verdict.NEW);
        }
        final Set<Verdict> replays = new HashSet<>();
        for (final long s : order) {
            replays.add(guard.accept(7, s));
        }
        assertThat(replays).doesNotContain(Verdict.NEW);
    }

    @Test
    void oldNumbersAreStaleSendersAreApartAndTheLeastRecentSenderIsForgotten() {
        final ReplayGuard guard = new ReplayGuard(64, 2);
        assertThat(guard.accept(1, 1000)).isEqualTo(Verdict.NEW);
        assertThat(guard.accept(1, 936)).isEqualTo(Verdict.STALE);
        assertThat(guard.accept(1, 937)).isEqualTo(Verdict.NEW);
        assertThat(guard.accept(1, 937)).isEqualTo(Verdict.REPLAYED);
        assertThat(guard.accept(1, 0)).isEqualTo(Verdict.INVALID);
        assertThat(guard.accept(2, 937)).isEqualTo(Verdict.NEW);
        assertThat(guard.accept(3, 1)).isEqualTo(Verdict.NEW);
        assertThat(guard.senderCount()).isEqualTo(2);
        // Sender 1 was heard least recently and is forgotten: its numbers start afresh.
        assertThat(guard.accept(1, 937)).isEqualTo(Verdict.NEW);
    }
}
