package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Where windows and per-key row assertions run: gathered, reusing the input's shuffle, or hash-shuffled. */
class DeterminePartitionDistributionTest {
    @Test
    void noKeysGatherEverythingToTheCoordinator() {
        final LocalShuffle how = DeterminePartitionDistribution.decide(List.of(), List.of(Set.of("k")), "one group");
        assertThat(how.choice()).isEqualTo(Distribution.GATHER);
        assertThat(how.code()).isEqualTo(DistributionReason.NO_PARTITION_KEYS);
    }

    @Test
    void aShuffleOnAKeyColumnOrAnEqualColumnIsReused() {
        final LocalShuffle how = DeterminePartitionDistribution.decide(List.of("a", "b"), List.of(Set.of("b", "x")), "");
        assertThat(how.choice()).isEqualTo(Distribution.REUSE_SHUFFLE);
        assertThat(how.code()).isEqualTo(DistributionReason.INPUT_ALREADY_SHUFFLED);
    }

    @Test
    void aShuffleOnOtherColumnsOrNoneIsReplacedByAHashShuffleOnTheKeys() {
        assertThat(DeterminePartitionDistribution.decide(List.of("a"), List.of(Set.of("a"), Set.of("c")), "")
                .choice()).as("one slot without a key").isEqualTo(Distribution.SHUFFLE_HASH);
        assertThat(DeterminePartitionDistribution.decide(List.of("a"), null, "").choice())
                .isEqualTo(Distribution.SHUFFLE_HASH);
        assertThat(DeterminePartitionDistribution.decide(List.of("a"), null, "").code())
                .isEqualTo(DistributionReason.WHOLE_GROUPS_PER_BUCKET);
        assertThat(DeterminePartitionDistribution.decide(List.of("a"), List.of(), "").choice())
                .isEqualTo(Distribution.SHUFFLE_HASH);
    }
}
