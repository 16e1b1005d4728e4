package io.sluice.transport;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether this process has had work under way recently (a query, a client's request): the idle
 * threads of a quiet process park long ({@link QuietIdleStrategy}), and the first sign of work wakes
 * them at once, so an idle cluster costs next to no CPU while a query still starts fast.
 *
 * <p>Work is reported by {@link #touch}, as often as wanted: the process counts as active until
 * {@link #quietAfterNs} has passed since the last touch. Heartbeats are not work.
 *
 * <p>A message on a query's critical path is announced by {@link #wake}: every idle thread of the process
 * (its driver, its Aeron client conductor, its control loop) ends its park at once and starts backing off
 * again from spinning, so the message that follows is picked up within microseconds instead of at the
 * end of a park of up to a millisecond; each hop of a query's control round trips used to pay that.
 */
public final class ProcessActivity {
    /** The activity of this process, shared by every driver and control loop it runs. */
    public static final ProcessActivity PROCESS = new ProcessActivity(TransportContext.IDLE_QUIET_AFTER_DEFAULT_NS);

    /** Touches closer together than this write nothing: the hot path only reads. */
    private static final long TOUCH_GRANULARITY_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final long quietAfterNs;
    /** The threads that idle on this activity's strategies: a wake unparks them all. */
    private final CopyOnWriteArrayList<Thread> sleepers = new CopyOnWriteArrayList<>();
    private final AtomicLong wakes = new AtomicLong();
    private volatile long lastActiveNs;

    /** An activity that is active now and turns quiet {@code quietAfterNs} after its last touch. */
    public ProcessActivity(final long quietAfterNs) {
        if (quietAfterNs <= 0) {
            throw new IllegalArgumentException("quiet-after time " + quietAfterNs + " ns must be positive ("
                    + TransportContext.IDLE_QUIET_AFTER_PROP_NAME + ")");
        }
        this.quietAfterNs = quietAfterNs;
        this.lastActiveNs = System.nanoTime();
    }

    /** Reports work under way now; wakes the threads parked in a quiet process. */
    public void touch() {
        final long now = System.nanoTime();
        final long elapsed = now - lastActiveNs;
        if (elapsed > quietAfterNs) {
            // Quiet, however recently it was touched (a quiet-after time shorter than the granularity): wake.
            lastActiveNs = now;
            wake(sleepers);
        } else if (elapsed > TOUCH_GRANULARITY_NS) {
            lastActiveNs = now;
        }
    }

    /** Whether nothing has touched this activity for {@link #quietAfterNs}. */
    public boolean quiet() {
        return System.nanoTime() - lastActiveNs > quietAfterNs;
    }

    public long quietAfterNs() {
        return quietAfterNs;
    }

    /**
     * Work arrives now (a control message is on its way here, or was just handed to this process's
     * driver): touches the activity and ends the park of every thread idling on it, which then backs off
     * from the start ({@link #wakes}).
     */
    public void wake() {
        wakes.incrementAndGet();
        lastActiveNs = System.nanoTime();
        wake(sleepers);
    }

    /** How many times {@link #wake} was called: an idle strategy that sees it change starts over. */
    public long wakes() {
        return wakes.get();
    }

    /** Counts the calling thread among those a touch of a quiet process or a {@link #wake} unparks. */
    public void enlist() {
        final Thread self = Thread.currentThread();
        if (!sleepers.contains(self)) {
            sleepers.removeIf(t -> !t.isAlive());
            sleepers.add(self);
        }
    }

    /** Parks the calling thread up to {@code parkNs}; {@link #touch} on a quiet process ends the park early. */
    void park(final long parkNs) {
        enlist();
        LockSupport.parkNanos(this, parkNs);
    }

    private static void wake(final CopyOnWriteArrayList<Thread> sleepers) {
        for (final Thread sleeper : sleepers) {
            LockSupport.unpark(sleeper);
        }
    }
}
