package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedDriverTest {
    @Test
    void directoryIsFreshPerDriverAndRemovedOnClose() {
        final TransportContext context = new TransportContext().termLength(64 * 1024).mtuLength(8192);
        final File first;
        final File second;
        try (EmbeddedDriver a = EmbeddedDriver.launch(context); EmbeddedDriver b = EmbeddedDriver.launch(context)) {
            first = a.directory();
            second = b.directory();
            assertThat(first).isDirectory();
            assertThat(second).isDirectory().isNotEqualTo(first);
            assertThat(first.getName()).startsWith("sluice-" + ProcessHandle.current().pid() + "-");
            assertThat(first.getParentFile()).isEqualTo(context.baseDirectory());
        }
        assertThat(first).doesNotExist();
        assertThat(second).doesNotExist();
    }

    @Test
    void failedStartLeavesNeitherThreadsNorDirectory(@TempDir final Path temp) throws IOException {
        final Path notADirectory = Files.createFile(temp.resolve("occupied"));
        final Set<String> threadsBefore = liveNonDaemonThreads();

        assertThatThrownBy(() -> EmbeddedDriver.launch(new TransportContext().baseDirectory(notADirectory.toFile())))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("could not start the embedded media driver in " + notADirectory)
                .hasMessageContaining(TransportContext.DIR_PROP_NAME);

        assertThat(liveNonDaemonThreads()).isEqualTo(threadsBefore);
        assertThat(Files.isRegularFile(notADirectory)).isTrue();
    }

    @Test
    void launchSweepsDirectoriesOfDeadProcessesOnly(@TempDir final Path base) throws Exception {
        final Process finished = new ProcessBuilder("true").start();
        assertThat(finished.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        final Path abandoned = Files.createDirectories(base.resolve("sluice-" + finished.pid() + "-1f"));
        Files.writeString(abandoned.resolve("cnc.dat"), "left by a killed process");
        final Path ours = Files.createDirectories(base.resolve("sluice-" + ProcessHandle.current().pid() + "-2e"));
        final Path init = Files.createDirectories(base.resolve("sluice-1-3d"));
        final Path foreign = Files.createDirectories(base.resolve("sluice-notapid-4c"));

        try (EmbeddedDriver driver = EmbeddedDriver.launch(
                new TransportContext().baseDirectory(base.toFile()).termLength(64 * 1024).mtuLength(8192))) {
            assertThat(driver.directory()).isDirectory();
        }

        assertThat(abandoned).doesNotExist();
        assertThat(ours).isDirectory();
        assertThat(init).isDirectory();
        assertThat(foreign).isDirectory();
    }

    private static Set<String> liveNonDaemonThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !t.isDaemon())
                .map(Thread::getName)
                .collect(Collectors.toSet());
    }
}
