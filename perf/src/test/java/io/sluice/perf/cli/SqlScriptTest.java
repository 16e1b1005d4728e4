package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/**
 * Statements of a script end at a {@code ;} outside literals, quoted identifiers and comments; what
 * follows the last one is the rest; pieces of only blanks and comments are no statement.
 */
class SqlScriptTest {
    @Test
    void aSemicolonInALiteralAQuotedNameOrACommentEndsNothing() {
        final SqlScript script = SqlScript.split("select 'a;b''c;' as \"x;y\" from t; -- not; this\n"
                + "select /* ; */ 2;\n  ;\n-- only a comment;\nselect 3");
        assertThat(script.statements()).containsExactly("select 'a;b''c;' as \"x;y\" from t",
                "-- not; this\nselect /* ; */ 2");
        assertThat(script.rest()).isEqualTo("\n-- only a comment;\nselect 3");
        assertThat(script.hasRest()).isTrue();
    }

    @Test
    void anUnfinishedStatementIsTheRestAndBlanksAndCommentsAreNone() {
        assertThat(SqlScript.split("select 1\n  from t").statements()).isEmpty();
        assertThat(SqlScript.split("select 'open;").statements()).isEmpty();
        final SqlScript done = SqlScript.split("select 1; -- trailing\n");
        assertThat(done.statements()).containsExactly("select 1");
        assertThat(done.hasRest()).isFalse();
        assertThat(SqlScript.split(" ; ;\n/* c */;").statements()).isEmpty();
    }

    /** Statements joined with {@code ;} come back as they were, however their words are chosen. */
    @Property
    void statementsJoinedBySemicolonsSplitBackIntoThemselves(
            @ForAll @Size(min = 1, max = 5) final List<@StringLength(min = 1, max = 12) String> words) {
        final List<String> statements = words.stream()
                .map(w -> "select '" + w.replace("'", "''") + "' as \"" + w.replace("\"", "\"\"") + "\"")
                .toList();
        final SqlScript script = SqlScript.split(String.join(";\n", statements) + ";");
        assertThat(script.statements()).isEqualTo(statements);
        assertThat(script.hasRest()).isFalse();
    }
}
