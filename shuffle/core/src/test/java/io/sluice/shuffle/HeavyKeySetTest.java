package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The heavy-key set answers membership exactly, for any keys (negative, extreme, colliding) and sizes. */
class HeavyKeySetTest {
    @Property(tries = 300)
    void containsExactlyItsKeys(@ForAll final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final Set<Long> keys = new HashSet<>();
        final int size = 1 + random.nextInt(random.nextBoolean() ? 8 : HeavyKeySet.MAX_KEYS);
        while (keys.size() < size) {
            keys.add(random.nextBoolean() ? random.nextLong() : random.nextLong(-100, 100) << random.nextInt(40));
        }
        final HeavyKeySet set = HeavyKeySet.of(keys.stream().mapToLong(Long::longValue).toArray());
        assertThat(set.size()).isEqualTo(keys.size());
        for (final long k : keys) {
            assertThat(set.contains(k)).isTrue();
        }
        for (int i = 0; i < 1000; i++) {
            final long probe = i % 2 == 0 ? random.nextLong() : random.nextLong(-200, 200);
            assertThat(set.contains(probe)).isEqualTo(keys.contains(probe));
        }
    }

    @Test
    void holdsTheExtremeKeys() {
        final HeavyKeySet set = HeavyKeySet.of(Long.MIN_VALUE, 0, Long.MAX_VALUE);
        assertThat(set.contains(Long.MIN_VALUE)).isTrue();
        assertThat(set.contains(0)).isTrue();
        assertThat(set.contains(Long.MAX_VALUE)).isTrue();
        assertThat(set.contains(1)).isFalse();
    }

    @Test
    void anEmptyOrRepeatedListIsRefusedWithTheFix() {
        assertThatThrownBy(HeavyKeySet::of).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use HeavyKeySet.none() when no key is heavy");
        assertThatThrownBy(() -> HeavyKeySet.of(7, 7)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("heavy key 7 is listed twice: list each key once");
    }
}
