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
}
