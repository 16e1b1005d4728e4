package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.ControlMessage;
import io.sluice.dispatch.control.ControlMessage.FilterPartials;
import io.sluice.engine.exec.RuntimeFilterHandle;
import io.sluice.engine.exec.RuntimeFilterRouter;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.filter.RuntimeFilterCodec;
import java.util.function.Consumer;

/**
 * Where a CN's join builds send their partial runtime filters in a cluster: a filter whose probe scans need
 * only this CN's build (local, or per bucket on a colocated scan) goes straight to them; one that needs every
 * CN's build goes to the coordinator as {@link FilterPartials} over the control plane (authenticated like
 * every control message), which answers every CN with the merged or collected filter. Partials too large for
 * one control message are sent empty: the coordinator then drops the filter on every CN.
 */
final class RuntimeFilterRouting implements RuntimeFilterRouter {
    /** Bytes of a control message besides the filter's: header, ids, trailer, with room to spare. */
    static final int HEADROOM_BYTES = 1024;

    private final Consumer<ControlMessage> coordinator;
    private final long queryId;
    private final long memberId;
    private final int index;
    private final int cnCount;
    private final int maxBytes;

    /**
     * @param coordinator sends a message to the coordinator
     * @param index       this CN's index in the query
     * @param maxMessage  the largest control message the coordinator's publication takes
     */
    RuntimeFilterRouting(final Consumer<ControlMessage> coordinator, final long queryId, final long memberId,
                         final int index, final int cnCount, final int maxMessage) {
        this.coordinator = coordinator;
        this.queryId = queryId;
        this.memberId = memberId;
        this.index = index;
        this.cnCount = cnCount;
        this.maxBytes = maxMessage - HEADROOM_BYTES;
    }

    @Override
    public void publish(final RuntimeFilterHandle handle, final FilterPartial[] partials) {
        if (!handle.fromEveryCn() || cnCount == 1) {
            handle.deliver(partials);
            return;
        }
        final byte[] bytes = RuntimeFilterCodec.encode(partials);
        coordinator.accept(new FilterPartials(queryId, memberId, index, handle.id(),
                handle.scope() == FilterScope.GLOBAL, bytes.length <= maxBytes ? bytes : new byte[0]));
    }
}
