-- NULL in group keys, aggregates, join keys and subqueries, over
--   t(id int64, k int64, i int32, d decimal(12,2), dt date, s string)
--   u(id int64, k int64, d decimal(12,2), s string)
-- Every statement is compared with DuckDB's answer over the same rows.

-- GROUP BY one nullable key: NULL is one group of its own, apart from any value.
select k, count(*) as n from t group by k;
select k, count(*) as n, count(k) as nk from t group by k order by k nulls last;
select i, sum(d) as sd from t group by i;
select s, count(*) as n, count(s) as ns from t group by s;
select dt, count(*) as n, max(id) as mx from t group by dt;

-- GROUP BY two nullable keys: (NULL, x) and (x, NULL) and (NULL, NULL) are distinct groups.
select k, s, count(*) as n from t group by k, s;
select k, i, sum(id) as sid, min(d) as md from t group by k, i;
select s, dt, count(*) as n, count(d) as nd from t group by s, dt;

-- Aggregates skip NULL inputs.
select sum(d) as sd, avg(d) as ad, min(d) as mn, max(d) as mx, count(d) as nd, count(*) as n from t;
select sum(i) as si, avg(i) as ai, min(i) as mn, max(i) as mx, count(i) as ni from t;
select min(dt) as mn, max(dt) as mx, count(dt) as ndt from t;
select count(distinct k) as dk, count(distinct i) as di, count(distinct d) as dd from t;
select k, count(distinct i) as di, count(i) as ni, count(*) as n from t group by k;
select k, sum(i) as si, avg(d) as ad, min(i) as mn, max(d) as mx from t group by k;
select s, sum(k) as sk, count(k) as nk from t group by s;

-- Groups whose inputs are all NULL: SUM/AVG/MIN/MAX are NULL, counts 0.
select k, sum(d) as sd, avg(d) as ad, min(d) as mn, max(d) as mx, count(d) as nd from t where d is null group by k;
select s, sum(i) as si, max(dt) as mx, count(i) as ni, count(*) as n from t where i is null group by s;
select sum(k) as sk, avg(k) as ak, count(k) as nk, count(*) as n from t where k is null;

-- Global aggregates over no rows: one row, NULL sums and extremes, zero counts.
select sum(d) as sd, avg(d) as ad, min(k) as mn, max(dt) as mx, count(*) as n, count(k) as nk from t where id < 0;
select count(distinct k) as dk, count(*) as n from t where id > 1000;
select sum(u.d) as sd, count(u.k) as nk from u where u.id < 0;

-- HAVING over aggregates that may be NULL.
select k, sum(d) as sd from t group by k having sum(d) is null;
select k, sum(d) as sd from t group by k having sum(d) > 0;
select s, count(d) as nd from t group by s having count(d) = 0;
select k, max(i) as mx from t group by k having max(i) is not null and count(*) > 1;

-- Joins on nullable keys: a NULL key matches nothing.
select t.id, u.id as uid from t join u on t.k = u.k;
select t.id, u.id as uid from t join u on t.s = u.s;
select t.id, u.id as uid from t join u on t.k = u.k and t.s = u.s;
select t.id, t.k, u.id as uid from t left join u on t.k = u.k;
select t.id, u.id as uid, u.k as uk from t right join u on t.k = u.k;
select t.k, count(u.id) as matched, count(*) as n from t left join u on t.k = u.k group by t.k;
select u.k as uk, count(t.id) as matched from t right join u on t.k = u.k group by u.k;
select t.id, u.id as uid from t full join u on t.k = u.k;

-- EXISTS and NOT EXISTS: a probe row whose key is NULL has no match.
select id from t where exists (select 1 from u where u.k = t.k);
select id from t where not exists (select 1 from u where u.k = t.k);
select id from t where exists (select 1 from u where u.s = t.s);
select id from t where not exists (select 1 from u where u.s = t.s);

-- IN over subqueries with and without NULLs.
select id from t where k in (select k from u);
select id from t where k in (select k from u where k is not null);
select id from t where s in (select s from u);

-- NOT IN: no row when the subquery has a NULL; a NULL key is never kept unless the subquery is empty.
select id from t where k not in (select k from u);
select id from t where k not in (select k from u where k is not null);
select id from t where id not in (select k from u);
select id from t where id not in (select k from u where k is not null);
select id from t where k not in (select k from u where id < 0);
select id from t where k is null and k not in (select k from u where id < 0);
select id from t where s not in (select s from u where s is not null);
select id from t where k not in (select k from u where k is not null) and id > 5;

-- Scalar subqueries that give NULL.
select id, (select max(u.d) from u where u.id < 0) as m from t where id < 4;
select id from t where k = (select max(k) from u where id < 0);
select id from t where d > (select avg(d) from u);
select count(*) as n from t where k > (select min(k) from u);

-- Two runtime filters on one scan of t, each key column with NULLs: the more selective tested first, the other
-- key read only for the rows it keeps.
select count(*) as n, sum(t.i) as si, min(t.id) as lo from t join u on t.k = u.k join u u2 on t.i = u2.id where u.d > 5 and u2.k > 2;
