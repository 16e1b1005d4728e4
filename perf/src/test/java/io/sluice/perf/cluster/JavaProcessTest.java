package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Child JVMs for tests: their command line, awaiting their output, signals and ending them. */
class JavaProcessTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void theCommandLineIsThisJvmsJavaWithSluicesFlagsFromThePomAndThisClasspath() {
        final String flags = System.getProperty(JavaProcess.JVM_FLAGS_PROPERTY);
        assertThat(flags).as("passed by surefire from pom.xml")
                .contains("--add-exports=java.base/sun.nio.ch=ALL-UNNAMED");

        final List<String> expected = new ArrayList<>();
        expected.add(ProcessHandle.current().info().command().orElseThrow());
        expected.addAll(List.of(flags.trim().split("\\s+")));
        expected.addAll(List.of("-Xmx64m", "-Dx=y", "-cp", System.getProperty("java.class.path"),
                UdpEchoMain.class.getName(), "127.0.0.1", "more"));
        assertThat(JavaProcess.of(UdpEchoMain.class).jvmArgs("-Xmx64m", "-Dx=y").args("127.0.0.1").args("more")
                .commandLine()).isEqualTo(expected);
    }

    @Test
    void awaitingALineThatNeverComesFailsWithWhatTheProcessPrintedOnceItEnds() {
        try (JavaProcess wrongUsage = JavaProcess.of(UdpEchoClientMain.class).start()) {
            assertThatThrownBy(() -> wrongUsage.awaitLine(line -> line.startsWith(UdpEchoClientMain.REPLY), TIMEOUT))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("ended its stdout without the line awaited")
                    .hasMessageContaining("usage: UdpEchoClientMain");
            assertThat(wrongUsage.awaitExit(TIMEOUT)).isEqualTo(2);
        }
    }

    @Test
    void awaitingALineFailsAtTheDeadlineWhileTheProcessStillRuns() {
        try (JavaProcess echo = JavaProcess.of(UdpEchoMain.class).args("127.0.0.1").start()) {
            echo.awaitLine(line -> line.startsWith(UdpEchoMain.LISTENING), TIMEOUT);
            assertThatThrownBy(() -> echo.awaitLine(line -> line.startsWith("never printed"), Duration.ofMillis(50)))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("printed no line awaited within 50 ms; it still runs")
                    .hasMessageContaining(UdpEchoMain.LISTENING);
        }
    }

    @Test
    void closeEndsAStoppedProcessWithTermRatherThanWaitingToKillIt() throws Exception {
        // A client asking a port nobody listens on keeps running and, unlike the echo server, ignores its stdin,
        // which close also ends: TERM is the only way out before KILL.
        final JavaProcess asking = JavaProcess.of(UdpEchoClientMain.class).args("127.0.0.1", "9", "nobody").start();
        try {
            asking.signal("STOP");
            final Path stat = Path.of("/proc", Long.toString(asking.pid()), "stat");
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!Files.readString(stat).replaceFirst(".*\\) ", "").startsWith("T")) {
                assertThat(System.nanoTime() - deadline).as("process stopped within " + TIMEOUT).isNegative();
                LockSupport.parkNanos(1_000_000);
            }
        } finally {
            asking.close();
        }
        assertThat(asking.isAlive()).isFalse();
        assertThat(asking.process().exitValue()).as("exit code of a process ended by TERM, not KILL")
                .isEqualTo(128 + 15);
    }

    @Test
    void aSignalMustBeANameOfASignal() {
        try (JavaProcess echo = JavaProcess.of(UdpEchoMain.class).args("127.0.0.1").start()) {
            assertThatThrownBy(() -> echo.signal("9; rm")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'9; rm'");
        }
    }
}
