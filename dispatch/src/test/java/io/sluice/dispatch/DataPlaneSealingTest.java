package io.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.transport.ClusterSecret;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.TransportContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The data planes of a cluster with a secret seal for the receiver's incarnation: frames sealed for the
 * CN as it started now are read, frames sealed for another start of it are refused, counted and logged
 * naming their source, and a publisher for a CN whose incarnation is unknown is refused with the fix.
 */
class DataPlaneSealingTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("the data planes' shared secret".getBytes(
            StandardCharsets.UTF_8));
    private static final String IPC = "aeron:ipc";
    private static final long RECEIVER_INCARNATION = 77;

    @Test
    void framesSealedForAnotherStartOfTheReceiverAreRefusedAndCounted() {
        final List<String> log = new ArrayList<>();
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(1024 * 1024));
             DataPlane receiver = new DataPlane(driver.aeron(), driver.aeron().addSubscription(IPC, 1001), IPC, 1001,
                     driver.context(), new DispatchContext(), SECRET, RECEIVER_INCARNATION, log::add);
             DataPlane sender = new DataPlane(driver.aeron(), driver.aeron().addSubscription(IPC, 1002), IPC, 1002,
                     driver.context(), new DispatchContext(), SECRET, 78, line -> { })) {
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[12]);
            try (FramePublisher now = sender.publisher(IPC, 1001, RECEIVER_INCARNATION);
                 FramePublisher earlier = sender.publisher(IPC, 1001, RECEIVER_INCARNATION - 1)) {
                now.send(9, 1, 1, 0, FrameKind.EOS, payload, 0, payload.capacity());
                earlier.send(9, 1, 1, 0, FrameKind.EOS, payload, 0, payload.capacity());
            }
            final Deadline deadline = Deadline.in(10_000, "the frame sealed for another start to be refused");
            while (receiver.rejectedFrames() == 0) {
                deadline.check();
                receiver.demultiplexer().poll();
            }
            // The genuine frame before it in the stream was read, not refused.
            assertThat(receiver.rejectedFrames()).isEqualTo(1);
            assertThat(log).singleElement().asString().contains("dropped a message from")
                    .contains("tag does not match").contains("claiming to come from CN 1");
        }
    }

    @Test
    void withASecretAPublisherForACnOfUnknownIncarnationIsRefusedNamingTheFix() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(1024 * 1024));
             DataPlane plane = new DataPlane(driver.aeron(), driver.aeron().addSubscription(IPC, 1001), IPC, 1001,
                     driver.context(), new DispatchContext(), SECRET, RECEIVER_INCARNATION, line -> { })) {
            assertThatThrownBy(() -> plane.publisher(IPC, 1002, 0)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the CN receiving on aeron:ipc stream 1002 has no known incarnation")
                    .hasMessageContaining("PREPARE");
        }
    }
}
