package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
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
    void aWakeEndsAnActiveThreadsLongParkAndItsBackoffStartsOver() throws InterruptedException {
        final ProcessActivity activity = new ProcessActivity(HOUR_NS);
        final Backing off = new Backing(activity);
        off.awaitLongPark();
        final long before = off.idles.get();
        activity.wake();
        // Spinning and yielding again: many idles at once, where the next park alone would take seconds.
        off.awaitIdles(before + 30);
        off.stop();
    }

    @Test
    void aRingAtTheDoorbellWakesAnActiveProcessToo() throws InterruptedException {
        final ProcessActivity activity = new ProcessActivity(HOUR_NS);
        try (Doorbell doorbell = Doorbell.open("127.0.0.1", activity, "test");
             DoorbellRinger ringer = new DoorbellRinger()) {
            final Backing off = new Backing(activity);
            off.awaitLongPark();
            final long before = off.idles.get();
            ringer.ring("127.0.0.1", doorbell.port());
            off.awaitIdles(before + 30);
            assertThat(activity.wakes()).isEqualTo(1);
            off.stop();
        }
    }

    /**
     * A thread idling with nothing to do on an active process whose longest park is an hour: its parks
     * double from a microsecond, so after a second or two each lasts seconds.
     */
    private static final class Backing {
        final AtomicLong idles = new AtomicLong();
        private final Thread thread;
        private volatile boolean stopped;

        Backing(final ProcessActivity activity) {
            final QuietIdleStrategy idle = new QuietIdleStrategy(activity, HOUR_NS, HOUR_NS);
            thread = new Thread(() -> {
                while (!stopped) {
                    idle.idle(0);
                    idles.incrementAndGet();
                }
            });
            thread.setDaemon(true);
            thread.start();
        }

        /** Until its parks last about a second (10 spins, 20 yields, then parks of 1 µs doubling 20 times). */
        void awaitLongPark() {
            awaitIdles(50);
            awaitParked(thread);
        }

        void awaitIdles(final long count) {
            final Deadline deadline = Deadline.in(20_000, count + " idles");
            while (idles.get() < count) {
                deadline.check();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }

        void stop() throws InterruptedException {
            stopped = true;
            LockSupport.unpark(thread);
            thread.join();
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
