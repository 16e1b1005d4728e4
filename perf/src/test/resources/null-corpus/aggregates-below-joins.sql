-- Aggregations over a left join that read only the other side, which the planner moves below the join
-- (AggregateBelowJoin): t.k repeats and is NULL in several rows, u.k repeats (1, 3), is NULL in four rows
-- and has keys t lacks; see README.md.

-- Counts: 0 for the rows of t without a match (NULL keys included), a NULL u.d not counted.
select t.id, count(u.id) as c from t left join u on t.k = u.k group by t.id;
select t.id, count(u.d) as c, count(u.s) as cs from t left join u on t.k = u.k group by t.id;
-- Grouped by a repeating key of t: each group meets u's rows once per row of t in it.
select t.k, count(u.id) as c, sum(u.d) as s, min(u.id) as lo, max(u.d) as hi from t left join u on t.k = u.k group by t.k;
select t.s, t.k, count(u.id) as c, sum(u.k) as sk, min(u.d) as md from t left join u on t.k = u.k group by t.s, t.k;
select t.i, max(u.id) as m from t left join u on t.k = u.k group by t.i;
-- Two equalities, and conditions on u alone (TPC-H Q13's shape), inside the join or nothing matching at all.
select t.id, count(u.id) as c, sum(u.d) as s from t left join u on t.k = u.k and t.d = u.d group by t.id;
select t.k, count(u.id) as c from t left join u on t.k = u.k and u.s not like '%a%' group by t.k;
select c, count(*) as n from (select t.id, count(u.id) as c from t left join u on t.k = u.k and u.d > 0 group by t.id) x group by c order by n desc, c desc;
select t.id, count(u.id) as c, sum(u.d) as s, max(u.k) as m from t left join u on t.k = u.k and u.id > 100 group by t.id;
-- u preserved, t aggregated: t's NULL i and d skipped, u's unmatched keys 0 or NULL.
select u.k, count(t.id) as c, sum(t.i) as si, sum(t.d) as sd, min(t.dt) as first from u left join t on u.k = t.k group by u.k;
-- Left as they are: COUNT(*) (an unmatched row counts), AVG, DISTINCT, a condition on t in the join.
select t.k, count(*) as c from t left join u on t.k = u.k group by t.k;
select t.k, avg(u.d) as a, count(distinct u.k) as dk from t left join u on t.k = u.k group by t.k;
select t.k, count(u.id) as c from t left join u on t.k = u.k and t.i > 0 group by t.k;
