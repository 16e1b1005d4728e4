package io.sluice.dispatch.cluster;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * How a control loop waits: spin a little, yield a little, then park, up to 100 µs while a query is
 * under way (the next message is expected within microseconds: a query's control round trips are
 * on its critical path) and up to 1 ms otherwise (an idle process costs next to no CPU).
 */
final class ControlIdle implements IdleStrategy {
    private final BooleanSupplier busy;
    private final IdleStrategy eager = new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MICROSECONDS.toNanos(100));
    private final IdleStrategy lazy = new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MILLISECONDS.toNanos(1));

    /** @param busy whether a query is under way now */
    ControlIdle(final BooleanSupplier busy) {
        this.busy = busy;
    }

    @Override
    public void idle(final int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        (busy.getAsBoolean() ? eager : lazy).idle();
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
