package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.SluiceCommand;
import java.util.List;
import org.junit.jupiter.api.Test;

class JavaCommandTest {
    @Test
    void startsTheSluiceCommandWithTheBuildsFlagsThenTheArguments() {
        assertThat(JavaCommand.MAIN_CLASS).isEqualTo(SluiceCommand.class.getName());
        final List<String> command = JavaCommand.sluice(List.of("-Xmx64m"), List.of("cluster", "status"));
        final int main = command.indexOf(JavaCommand.MAIN_CLASS);
        assertThat(command.subList(main + 1, command.size())).containsExactly("cluster", "status");
        assertThat(command.subList(1, main)).containsSubsequence(JavaCommand.requiredJvmFlags())
                .contains("-Xmx64m", "-cp");
    }

    @Test
    void runsOnTheParallelCollectorUnlessTheArgumentsChooseOne() {
        assertThat(JavaCommand.sluice(List.of("-Xmx64m"), List.of("cluster", "status")))
                .containsOnlyOnce("-XX:+UseParallelGC");
        assertThat(JavaCommand.sluice(List.of("-XX:+UseGCOverheadLimit"), List.of("status")))
                .contains("-XX:+UseParallelGC");
        for (final String chosen : List.of("-XX:+UseG1GC", "-XX:+UseSerialGC", "-XX:+UseZGC", "-XX:+UseParallelGC")) {
            final List<String> command = JavaCommand.sluice(List.of("-Xmx64m", chosen), List.of("status"));
            assertThat(command).as(chosen).containsOnlyOnce(chosen);
            assertThat(command.stream().filter(arg -> arg.matches("-XX:\\+Use\\w+GC")).toList()).as(chosen)
                    .containsExactly(chosen);
        }
    }

    @Test
    void cnProcessesKeepNoPerfDataUnlessTheArgumentsAskForIt() {
        final List<String> plain = JavaCommand.sluice(List.of("-Xmx64m"), List.of("status"));
        assertThat(plain).containsOnlyOnce("-XX:-UsePerfData");
        final List<String> asked = JavaCommand.sluice(List.of("-XX:+UsePerfData"), List.of("status"));
        // The JVM takes the last of two contradicting flags: the caller's comes after ours.
        assertThat(asked.indexOf("-XX:+UsePerfData")).isGreaterThan(asked.indexOf("-XX:-UsePerfData"));
    }
}
