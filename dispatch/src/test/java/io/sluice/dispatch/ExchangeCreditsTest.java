package io.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Credit per destination: a sender takes one per batch and no more than the window; what its
 * receiver grants back restores it, never above the window (a duplicate or forged grant is capped and
 * counted); unbounded credit, for a receiver that wants nothing more, never runs out; destinations
 * do not share credit.
 */
class ExchangeCreditsTest {
    @Test
    void aSenderTakesAtMostTheWindowUntilCreditComesBack() {
        final ExchangeCredits credits = new ExchangeCredits(3, 4);
        for (int i = 0; i < 4; i++) {
            assertThat(credits.tryAcquire(1)).as("batch %d", i).isTrue();
        }
        assertThat(credits.tryAcquire(1)).isFalse();
        assertThat(credits.available(0)).as("another destination's credit").isEqualTo(4);
        credits.grant(1, 2);
        assertThat(credits.tryAcquire(1)).isTrue();
        assertThat(credits.tryAcquire(1)).isTrue();
        assertThat(credits.tryAcquire(1)).isFalse();
    }

    @Test
    void grantsNeverLiftCreditAboveTheWindow() {
        final ExchangeCredits credits = new ExchangeCredits(2, 4);
        credits.tryAcquire(0);
        credits.grant(0, 1_000);
        assertThat(credits.available(0)).isEqualTo(4);
        assertThat(credits.refusedGrants()).isEqualTo(1);
    }

    @Test
    void unboundedCreditNeverRunsOut() {
        final ExchangeCredits credits = new ExchangeCredits(1, 1);
        credits.grant(0, -1);
        for (int i = 0; i < 10_000; i++) {
            assertThat(credits.tryAcquire(0)).isTrue();
        }
        credits.grant(0, 5);
        assertThat(credits.available(0)).isEqualTo(ExchangeCredits.UNBOUNDED);
    }
}
