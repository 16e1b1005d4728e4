package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Where windows and per-key row assertions run: gathered, reusing the input's shuffle, or hash-shuffled. */
class DeterminePartitionDistributionTest {
    @Test
    void noKeysGatherEverythingToTheCoordinator() {
        assertThat(DeterminePartitionDistribution.decide(List.of(), List.of(Set.of("k")), "one group").choice())
                .isEqualTo(Distribution.GATHER);
    }

    @Test
    void aShuffleOnAKeyColumnOrAnEqualColumnIsReused() {
        assertThat(DeterminePartitionDistribution.decide(List.of("a", "b"), List.of(Set.of("b", "x")), "").choice())
                .isEqualTo(Distribution.REUSE_SHUFFLE);
    }

    @Test
    void aShuffleOnOtherColumnsOrNoneIsReplacedByAHashShuffleOnTheKeys() {
        assertThat(DeterminePartitionDistribution.decide(List.of("a"), List.of(Set.of("a"), Set.of("c")), "")
                .choice()).as("one slot without a key").isEqualTo(Distribution.SHUFFLE_HASH);
        assertThat(DeterminePartitionDistribution.decide(List.of("a"), null, "").choice())
                .isEqualTo(Distribution.SHUFFLE_HASH);
        assertThat(DeterminePartitionDistribution.decide(List.of("a"), List.of(), "").choice())
                .isEqualTo(Distribution.SHUFFLE_HASH);
    }
}
