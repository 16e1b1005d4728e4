package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.perf.cluster.NetworkNamespaces.Availability;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** Whether a test that needs network namespaces runs, is skipped or fails. */
class NetworkNamespacesAvailabilityTest {
    private static final Availability UNAVAILABLE = new Availability(false, "no namespaces on this test machine");
    private static final Availability AVAILABLE = new Availability(true, "namespaces can be created");

    @Test
    void whereNamespacesCannotBeCreatedTheTestIsSkippedWithTheReason() {
        for (final String required : new String[] {null, "", "false", "FALSE"}) {
            assertThatThrownBy(() -> NetworkNamespaces.assumeAvailable(UNAVAILABLE, required))
                    .as("%s=%s", NetworkNamespaces.REQUIRED_PROPERTY, required)
                    .isInstanceOf(TestAbortedException.class)
                    .hasMessageContaining(UNAVAILABLE.reason());
        }
    }

    @Test
    void whereNamespacesAreRequiredButCannotBeCreatedTheTestFailsWithTheReason() {
        assertThatThrownBy(() -> NetworkNamespaces.assumeAvailable(UNAVAILABLE, "true"))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining(UNAVAILABLE.reason())
                .hasMessageContaining(NetworkNamespaces.REQUIRED_PROPERTY + "=true");
    }

    @Test
    void whereNamespacesCanBeCreatedTheTestRunsWhateverTheProperty() {
        for (final String required : new String[] {null, "false", "true"}) {
            assertThatCode(() -> NetworkNamespaces.assumeAvailable(AVAILABLE, required)).doesNotThrowAnyException();
        }
    }

    @Test
    void aRequiredPropertyThatIsNeitherTrueNorFalseIsAnErrorNamingIt() {
        for (final Availability availability : new Availability[] {UNAVAILABLE, AVAILABLE}) {
            assertThatThrownBy(() -> NetworkNamespaces.assumeAvailable(availability, "yes"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(NetworkNamespaces.REQUIRED_PROPERTY)
                    .hasMessageContaining("'yes'");
        }
    }

    @Test
    void theProbeFindsNamespacesAvailableHereAndLeavesNoProbeBehind() {
        NetworkNamespaces.assumeAvailable();
        assertThat(NetworkNamespaces.availability().available()).isTrue();
        assertThat(NetworkNamespaces.listNamespaces())
                .noneMatch(name -> name.startsWith("slc" + ProcessHandle.current().pid() + "probe"));
    }
}
