package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Backquoted names become double-quoted ones; string literals and comments keep their backquotes. */
class BackquotedNamesTest {
    @Test
    void namesAreDoubleQuotedOutsideLiteralsAndComments() {
        assertThat(BackquotedNames.asDoubleQuoted("select count(*) as `order count `, 'it''s `x`' as s -- `c`\n"
                + "from t where a = '`'"))
                .isEqualTo("select count(*) as \"order count \", 'it''s `x`' as s -- `c`\nfrom t where a = '`'");
    }

    @Test
    void aTextWithoutBackquotesIsUnchanged() {
        final String sql = "select 'a' || \"b\" from t -- done";
        assertThat(BackquotedNames.asDoubleQuoted(sql)).isEqualTo(sql);
    }

    @Test
    void blockCommentsAndDoubleQuotedNamesKeepTheirBackquotes() {
        assertThat(BackquotedNames.asDoubleQuoted("select /* `a` */ \"b`c\", `d` from t"))
                .isEqualTo("select /* `a` */ \"b`c\", \"d\" from t");
    }

    @Test
    void anUnterminatedLiteralIsKeptToTheEnd() {
        assertThat(BackquotedNames.asDoubleQuoted("select `a`, 'b`")).isEqualTo("select \"a\", 'b`");
    }
}
