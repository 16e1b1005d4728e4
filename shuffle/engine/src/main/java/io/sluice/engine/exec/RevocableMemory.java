package io.sluice.engine.exec;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory one worker's share of a spilling operator holds (a group table, the rows a sort keeps, a join's build
 * rows while it builds), which it can give back by writing those rows to disk: revocable memory, as Trino calls it.
 * When a reservation of the query would be refused, the query first asks the holders of revocable memory to spill,
 * largest first ({@link QueryMemory}), so that a join loading a partition from disk is not refused for what a
 * group-by after it holds.
 *
 * <p>The request is served at once on the requesting thread, at a safe point of the holder: a holder is spilled only
 * while no thread is inside it. Its owner enters it for each batch it adds ({@link #enter}, {@link #exit}); a request
 * that finds it entered passes it by instead of waiting, so two threads reserving at once never wait for each other.
 * An owner waits at most for a spill under way, which reserves nothing and takes no other lock.
 *
 * <p>The holder's own growth ({@link #tryReserve}) asks nobody: refused, it spills its own rows, as it did before
 * others could ask it to.
 */
public final class RevocableMemory {
    /** What a holder does when asked for its memory. */
    public interface Holder {
        /**
         * Writes the rows it holds to disk and gives their memory back ({@link RevocableMemory#release}); the rows it
         * takes next go on as after a refusal of its own.
         */
        void revoke();
    }

    private final QueryMemory.Operator memory;
    private final Holder holder;
    private final Semaphore inside = new Semaphore(1);
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong revocations = new AtomicLong();
    /** Whether the holder no longer holds revocable memory; changed only by the thread inside. */
    private boolean closed;

    RevocableMemory(final QueryMemory.Operator memory, final Holder holder) {
        this.memory = memory;
        this.holder = holder;
    }

    /** The operator the memory is accounted to. */
    public QueryMemory.Operator operator() {
        return memory;
    }

    /** Enters the holder to change it: waits while a request spills it. */
    public void enter() {
        inside.acquireUninterruptibly();
    }

    /** Leaves the holder: a request may spill it again. */
    public void exit() {
        inside.release();
    }

    /**
     * Reserves {@code bytes} more for rows the holder keeps, without asking other holders to spill; refused, it takes
     * nothing and returns false, and the holder spills its own rows.
     */
    public boolean tryReserve(final long bytes) {
        if (bytes <= 0) {
            return true;
        }
        if (!memory.tryReserveAskingNobody(bytes)) {
            return false;
        }
        held.addAndGet(bytes);
        return true;
    }

    /** Gives back {@code bytes} the holder reserved and no longer keeps (rows it wrote to disk). */
    public void release(final long bytes) {
        if (bytes <= 0) {
            return;
        }
        held.addAndGet(-bytes);
        memory.release(bytes);
    }

    /** Bytes the holder keeps now, which a spill would give back. */
    public long held() {
        return held.get();
    }

    /** Times a request of another reservation made the holder spill. */
    public long revocations() {
        return revocations.get();
    }

    /**
     * Spills the holder on the calling thread, unless a thread is inside it, it holds nothing or it was closed; returns
     * the bytes it gave back.
     */
    long tryRevoke() {
        if (held.get() <= 0 || !inside.tryAcquire()) {
            return 0;
        }
        try {
            if (closed) {
                return 0;
            }
            final long before = held.get();
            holder.revoke();
            revocations.incrementAndGet();
            return before - held.get();
        } finally {
            inside.release();
        }
    }

    /**
     * Ends the holder's revocable memory (its operator takes its rows over, to finish them): waits for a spill under
     * way, and no request asks it again. What it still holds stays reserved until the operator releases it.
     */
    public void close() {
        enter();
        try {
            closed = true;
        } finally {
            exit();
        }
        memory.unregister(this);
    }

    @Override
    public String toString() {
        return memory + " (" + QueryMemory.size(held.get()) + " revocable)";
    }
}
