package io.sluice.transport;

import io.aeron.Aeron;
import io.aeron.driver.status.SystemCounterDescriptor;

/** What a process's media driver counted, read through a connected Aeron client. */
public final class DriverCounters {
    private DriverCounters() {
    }

    /** Packets the driver sent again because a receiver asked (NAK) for what it missed. */
    public static long retransmitsSent(final Aeron aeron) {
        return value(aeron, SystemCounterDescriptor.RETRANSMITS_SENT);
    }

    /** NAKs the driver sent: gaps its receivers found in what arrived. */
    public static long naksSent(final Aeron aeron) {
        return value(aeron, SystemCounterDescriptor.NAK_MESSAGES_SENT);
    }

    private static long value(final Aeron aeron, final SystemCounterDescriptor counter) {
        return aeron.isClosed() ? 0 : aeron.countersReader().getCounterValue(counter.id());
    }
}
