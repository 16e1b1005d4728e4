package io.sluice.dispatch.cluster;

import io.sluice.transport.ProcessActivity;
import io.sluice.transport.TransportContext;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * How a control loop waits: spin a little, yield a little, then park, up to 100 µs while a query is
 * under way (the next message is expected within microseconds: a query's control round trips are
 * on its critical path; the process's {@link ProcessActivity} is touched meanwhile), up to 1 ms
 * otherwise, and the transport's quiet park once the process has been quiet for a while. A
 * {@link ProcessActivity#wake} (a peer rang this process's doorbell: a message is on its way) starts
 * the backoff over.
 */
final class ControlIdle implements IdleStrategy {
    private final BooleanSupplier busy;
    private final ProcessActivity activity;
    private final IdleStrategy eager = new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MICROSECONDS.toNanos(100));
    private final IdleStrategy lazy;
    private long seenWakes;
    private boolean enlisted;

    /** @param busy whether a query is under way now */
    ControlIdle(final BooleanSupplier busy, final TransportContext transport) {
        this.busy = busy;
        this.activity = transport.activity();
        this.lazy = transport.newLongLivedIdleStrategy(TimeUnit.MILLISECONDS.toNanos(1));
    }

    @Override
    public void idle(final int workCount) {
        if (workCount > 0) {
            if (busy.getAsBoolean()) {
                activity.touch();
            }
            reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (!enlisted) {
            // The first idle runs on the loop's own thread: a wake must end its eager parks too.
            activity.enlist();
            enlisted = true;
        }
        final long wakes = activity.wakes();
        if (wakes != seenWakes) {
            seenWakes = wakes;
            eager.reset();
        }
        if (busy.getAsBoolean()) {
            activity.touch();
            eager.idle();
        } else {
            lazy.idle();
        }
    }

    @Override
    public void reset() {
        eager.reset();
        lazy.reset();
    }

    @Override
    public String alias() {
        return "control";
    }
}
