package io.sluice.transport;

import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Backs off as {@link BackoffIdleStrategy} does (spin, yield, then park up to a short maximum) while
 * the process is active, and parks a longer, fixed time once it is quiet ({@link ProcessActivity}):
 * a driver or control loop with nothing to do then wakes a few hundred times a second at most
 * instead of a thousand or more, and the process's first work wakes it at once. A
 * {@link ProcessActivity#wake} ends its park and starts the backoff over, so the thread polls closely
 * for the next millisecond or so, when the announced message arrives.
 */
public final class QuietIdleStrategy implements IdleStrategy {
    private final ProcessActivity activity;
    private final long quietParkNs;
    private final BackoffIdleStrategy active;
    private long seenWakes;
    private boolean enlisted;

    /**
     * @param maxParkNs   the longest park while the process is active
     * @param quietParkNs the park once it is quiet; 0 keeps backing off as when active
     */
    public QuietIdleStrategy(final ProcessActivity activity, final long maxParkNs, final long quietParkNs) {
        this.activity = activity;
        this.quietParkNs = quietParkNs;
        this.active = new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1), maxParkNs);
    }

    @Override
    public void idle(final int workCount) {
        if (workCount > 0) {
            active.reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (!enlisted) {
            // The first idle runs on the thread that owns this strategy: a wake must reach it.
            activity.enlist();
            enlisted = true;
        }
        final long wakes = activity.wakes();
        if (wakes != seenWakes) {
            seenWakes = wakes;
            active.reset();
        }
        if (quietParkNs > 0 && activity.quiet()) {
            activity.park(quietParkNs);
        } else {
            active.idle();
        }
    }

    @Override
    public void reset() {
        active.reset();
    }

    @Override
    public String alias() {
        return "quiet";
    }
}
