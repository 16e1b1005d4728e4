package io.sluice.transport;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether this process has had work under way recently (a query, a client's request): the idle
 * threads of a quiet process park long ({@link QuietIdleStrategy}), and the first sign of work wakes
 * them at once, so an idle cluster costs next to no CPU while a query still starts fast.
 *
 * <p>Work is reported by {@link #touch}, as often as wanted: the process counts as active until
 * {@link #quietAfterNs} has passed since the last touch. Heartbeats are not work.
 */
public final class ProcessActivity {
    /** The activity of this process, shared by every driver and control loop it runs. */
    public static final ProcessActivity PROCESS = new ProcessActivity(TransportContext.IDLE_QUIET_AFTER_DEFAULT_NS);

    /** Touches closer together than this write nothing: the hot path only reads. */
    private static final long TOUCH_GRANULARITY_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final long quietAfterNs;
    private final CopyOnWriteArrayList<Thread> sleepers = new CopyOnWriteArrayList<>();
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
        final long last = lastActiveNs;
        if (now - last > TOUCH_GRANULARITY_NS) {
            lastActiveNs = now;
            if (now - last > quietAfterNs) {
                wake();
            }
        }
    }

    /** Whether nothing has touched this activity for {@link #quietAfterNs}. */
    public boolean quiet() {
        return System.nanoTime() - lastActiveNs > quietAfterNs;
    }

    public long quietAfterNs() {
        return quietAfterNs;
    }

    /** Parks the calling thread up to {@code parkNs}; {@link #touch} on a quiet process ends the park early. */
    void park(final long parkNs) {
        final Thread self = Thread.currentThread();
        if (!sleepers.contains(self)) {
            sleepers.removeIf(t -> !t.isAlive());
            sleepers.add(self);
        }
        LockSupport.parkNanos(this, parkNs);
    }

    private void wake() {
        for (final Thread sleeper : sleepers) {
            LockSupport.unpark(sleeper);
        }
    }
}
