-- SELECT without FROM and VALUES: constant rows, alone, joined with a table, and filtered to none.
select 2 as two, 'x' as s, 1.50 as d;
select * from (values (1, 'a', 2.5), (2, 'bb', 3.25), (3, null, null)) as t(x, y, z) order by x;
select n_name, v.k from nation, (values (1), (2)) v(k) where n_nationkey = v.k order by 1, 2;
select count(*) as n from (select 1 as a) q where 1 = 0;
select x, count(*) as n from (values (1), (1), (2)) as t(x) group by x order by x;
