package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs, each with its own embedded driver, exchanging frames over aeron:udp on 127.0.0.1. */
class UdpTwoProcessTest {
    private static final int TERM_LENGTH = 4 * 1024 * 1024;
    private static final int FRAMES = 400;

    @Test
    void framesSentToAnotherProcessArriveWithTheSameChecksum(@TempDir final Path temp) throws Exception {
        final int[] ports = freeUdpPorts(2);
        final Path output = temp.resolve("receiver.out");
        final TransportContext context = new TransportContext().termLength(TERM_LENGTH)
                .connectTimeoutNs(TimeUnit.SECONDS.toNanos(60));
        Process receiver = null;
        try (EmbeddedDriver driver = EmbeddedDriver.launch(context);
             FrameSubscriber replies = driver.addSubscriber(UdpFrameReceiverMain.udp(ports[1]),
                     UdpFrameReceiverMain.REPLY_STREAM);
             FramePublisher publisher = driver.addPublisher(UdpFrameReceiverMain.udp(ports[0]),
                     UdpFrameReceiverMain.DATA_STREAM)) {
            receiver = startReceiver(ports, output);

            final int maxPayload = publisher.maxPayloadLength();
            final FrameChecksum sent = new FrameChecksum(maxPayload);
            final UnsafeBuffer payload = IpcTransportTest.randomBytes(maxPayload, 21);
            final SplittableRandom random = new SplittableRandom(23);
            for (int i = 0; i < FRAMES; i++) {
                final int length = i == 0 ? 0 : i == 1 ? maxPayload : random.nextInt(maxPayload + 1);
                final FrameKind kind = FrameKind.values()[i % 3];
                publisher.send(42L << 32 | i, i % 3, 1, i % 17, kind, payload, 0, length);
                sent.onFrame(42L << 32 | i, i % 3, 1, i % 17, kind, payload, 0, length);
            }

            final long[] answer = new long[2];
            final Process child = receiver;
            final Deadline deadline = Deadline.in(90_000, "the receiver's checksum on " + replies.channel());
            final FrameHandler onReply = (q, e, s, b, k, buffer, offset, length) -> {
                answer[0] = buffer.getLong(offset);
                answer[1] = buffer.getLong(offset + Long.BYTES);
            };
            deadline.doWorkUntil(() -> {
                if (!child.isAlive()) {
                    throw new AssertionError("receiver exited with " + child.exitValue() + " before replying:\n"
                            + read(output));
                }
                return replies.poll(onReply, 16);
            }, () -> answer[0] != 0);

            publisher.send(-1, 0, 0, 0, FrameKind.EOS, null, 0, 0);
            assertThat(receiver.waitFor(60, TimeUnit.SECONDS)).as("receiver exits").isTrue();
            assertThat(receiver.exitValue()).as(read(output)).isZero();
            assertThat(answer[0]).as("frames the receiver counted").isEqualTo(FRAMES);
            assertThat(answer[1]).as("checksum of what the receiver got").isEqualTo(sent.value());
            assertThat(publisher.messages()).isEqualTo(FRAMES + 1);
        } finally {
            if (receiver != null && receiver.isAlive()) {
                receiver.destroyForcibly();
                receiver.waitFor(30, TimeUnit.SECONDS);
                removeDriverDirectoryOf(output);
            }
        }
    }

    private static Process startReceiver(final int[] ports, final Path output) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.add("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");
        command.add("--add-opens=java.base/java.lang.reflect=ALL-UNNAMED");
        command.add("--add-exports=java.base/sun.nio.ch=ALL-UNNAMED");
        command.add("--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED");
        command.add("-Xmx256m");
        command.add("-D" + TransportContext.TERM_LENGTH_PROP_NAME + "=" + TERM_LENGTH);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(UdpFrameReceiverMain.class.getName());
        command.add(Integer.toString(ports[0]));
        command.add(Integer.toString(ports[1]));
        command.add(Integer.toString(FRAMES));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    /** A killed receiver cannot delete its driver directory: delete it for it. */
    private static void removeDriverDirectoryOf(final Path output) {
        read(output).lines()
                .filter(line -> line.startsWith(UdpFrameReceiverMain.DIRECTORY_LINE))
                .map(line -> new File(line.substring(UdpFrameReceiverMain.DIRECTORY_LINE.length())))
                .filter(directory -> directory.getName().startsWith("sluice-"))
                .forEach(directory -> IoUtil.delete(directory, true));
    }

    private static int[] freeUdpPorts(final int count) throws IOException {
        final int[] ports = new int[count];
        final DatagramSocket[] sockets = new DatagramSocket[count];
        try {
            for (int i = 0; i < count; i++) {
                sockets[i] = new DatagramSocket(0, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
        } finally {
            for (final DatagramSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
        return ports;
    }

    private static String read(final Path output) {
        try {
            return Files.readString(output, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            return "(no output: " + e + ")";
        }
    }
}
