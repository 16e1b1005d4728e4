package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class QuietIdleTest {
    /** A park so long that a thread returning from it within the test's deadline must have been woken. */
    private static final long HOUR_NS = TimeUnit.HOURS.toNanos(1);

    @Test
    void aProcessIsActiveUntilNothingTouchedItForTheQuietAfterTime() {
        final ProcessActivity activity = new ProcessActivity(TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(activity.quiet()).isFalse();
        final Deadline deadline = Deadline.in(10_000, "the activity to turn quiet");
        while (!activity.quiet()) {
            deadline.check();
            Thread.onSpinWait();
        }
        activity.touch();
        assertThat(activity.quiet()).isFalse();
    }

    @Test
    void aThreadParkedByAQuietProcessIsWokenByTheFirstTouch() throws InterruptedException {
        final ProcessActivity activity = new ProcessActivity(1);
        final QuietIdleStrategy idle = new QuietIdleStrategy(activity, TimeUnit.MILLISECONDS.toNanos(1), HOUR_NS);
        final AtomicInteger idles = new AtomicInteger();
        final CountDownLatch returned = new CountDownLatch(1);
        final Thread sleeper = new Thread(() -> {
            idles.incrementAndGet();
            idle.idle(0);
            returned.countDown();
        });
        awaitQuiet(activity);
        sleeper.start();
        awaitParked(sleeper);
        activity.touch();
        assertThat(returned.await(30, TimeUnit.SECONDS)).as("woken long before its hour-long park ends").isTrue();
        sleeper.join();
    }

    @Test
    void anActiveProcessBacksOffNoLongerThanTheMaximumPark() {
        final ProcessActivity activity = new ProcessActivity(HOUR_NS);
        final QuietIdleStrategy idle = new QuietIdleStrategy(activity, TimeUnit.MILLISECONDS.toNanos(1), HOUR_NS);
        // Active for an hour: 200 idles back off to 1 ms parks, never the hour-long quiet park.
        for (int i = 0; i < 200; i++) {
            idle.idle(0);
        }
        assertThat(activity.quiet()).isFalse();
    }

    @Test
    void aRingAtTheDoorbellWakesAQuietProcess() throws InterruptedException {
        final ProcessActivity activity = new ProcessActivity(1);
        final QuietIdleStrategy idle = new QuietIdleStrategy(activity, TimeUnit.MILLISECONDS.toNanos(1), HOUR_NS);
        final CountDownLatch returned = new CountDownLatch(1);
        try (Doorbell doorbell = Doorbell.open("127.0.0.1", activity, "test");
             DoorbellRinger ringer = new DoorbellRinger()) {
            final Thread sleeper = new Thread(() -> {
                idle.idle(0);
                returned.countDown();
            });
            awaitQuiet(activity);
            sleeper.start();
            awaitParked(sleeper);
            ringer.ring("127.0.0.1", doorbell.port());
            assertThat(returned.await(30, TimeUnit.SECONDS)).as("woken by the ring").isTrue();
            assertThat(doorbell.rings()).isEqualTo(1);
            assertThat(ringer.failed()).isZero();
            sleeper.join();
        }
    }

    @Test
    void aPeerWithoutADoorbellIsNotRung() {
        try (DoorbellRinger ringer = new DoorbellRinger()) {
            ringer.ring("127.0.0.1", 0);
            ringer.ring("no-such-host.invalid", 4000);
            assertThat(ringer.failed()).isEqualTo(1);
        }
    }

    private static void awaitQuiet(final ProcessActivity activity) {
        final Deadline deadline = Deadline.in(10_000, "the activity to turn quiet");
        while (!activity.quiet()) {
            deadline.check();
            Thread.onSpinWait();
        }
    }

    private static void awaitParked(final Thread thread) {
        final Deadline deadline = Deadline.in(10_000, "the thread to park");
        while (thread.getState() != Thread.State.TIMED_WAITING) {
            deadline.check();
            Thread.onSpinWait();
        }
    }
}
