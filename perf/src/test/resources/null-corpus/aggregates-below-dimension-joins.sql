-- Aggregations over an inner join grouped by one table's columns (the dimension) whose aggregates read only the
-- other side, which the planner groups by the join key below the join (AggregateBelowDimensionJoin) where the
-- grouping columns have about as many distinct values as the key; see README.md.

-- u the dimension: u.k repeats (1, 3), is NULL in four rows and has keys t lacks; t.k is NULL in several rows.
select u.id, u.s, sum(t.d) as sd, count(t.i) as ci, count(*) as n, min(t.dt) as first, max(t.i) as mi from t, u where t.k = u.k group by u.id, u.s;
-- NULL grouping values on both sides: u.s of three rows, t.i of several.
select u.s, sum(t.i) as si, min(t.d) as md from t, u where t.k = u.k group by u.s;
select u.id, t.i, sum(t.d) as sd, count(*) as n from t join u on u.k = t.k group by u.id, t.i;
-- u.k 1 and 3 each in two rows of u: each of their t rows counts in both groups (the dimension is the smaller table).
select u.k, u.id, sum(t.i) as si, count(t.id) as c, max(t.k) as mk from t, u where t.k = u.k group by u.k, u.id;
-- Two equalities; expressions as grouping keys and arguments.
select u.id, u.s, sum(t.d) as sd, count(*) as n from t join u on t.k = u.k and t.id = u.id group by u.id, u.s;
select upper(u.s) as us, u.id, t.i * 2 as i2, sum(t.d * t.i) as w, count(t.dt) as cd from t, u where t.k = u.k group by upper(u.s), u.id, t.i * 2;
-- Three inputs: the other side is itself a join.
select u.id, sum(a.d) as sd, count(b.id) as c from t a, t b, u where a.k = u.k and a.s = b.s group by u.id;
-- HAVING and ORDER BY over the result; a filter on the other side, or one that leaves nothing.
select u.id, sum(t.d) as sd from t, u where t.k = u.k group by u.id having count(*) > 2 order by sd desc nulls last, u.id;
select u.id, u.s, sum(t.d) as sd, count(*) as n from t, u where t.k = u.k and t.i > 0 group by u.id, u.s;
select u.id, sum(t.d) as sd, count(*) as n from t, u where t.k = u.k and t.id > 100 group by u.id;
-- Left as they are: a filtered dimension, an aggregate of the dimension's columns, COUNT(DISTINCT), no grouping.
select u.id, sum(t.d) as sd from t, u where t.k = u.k and u.d > 0 group by u.id;
select u.id, sum(t.d) as sd, max(u.d) as md from t, u where t.k = u.k group by u.id;
select u.id, count(distinct t.s) as ds from t, u where t.k = u.k group by u.id;
select sum(t.d) as sd, count(*) as n from t, u where t.k = u.k;
