-- upper, lower, length, trim/ltrim/rtrim, concat and ||, replace, position, left/right, lpad/rpad.
select n_nationkey, upper(n_comment) as u, lower(n_name) as l from nation order by n_nationkey;
select n_nationkey, length(n_name) as len, char_length(n_comment) as c from nation order by n_nationkey;
select r_regionkey, trim('  ' || r_name || '  ') as t, ltrim('  ' || r_name) as lt, rtrim(r_name || '  ') as rt
from region order by r_regionkey;
select n_nationkey, n_name || '-' || n_regionkey as code, concat(n_name, ' of ', r_name) as full_name
from nation, region where n_regionkey = r_regionkey order by n_nationkey;
select n_nationkey, concat(n_name, null, '!') as c, n_name || null as n from nation order by n_nationkey;
select p_partkey, replace(p_type, 'BRASS', 'brass') as t from part where p_partkey < 50 order by p_partkey;
select p_partkey, position('BRASS' in p_type) as at, strpos(p_name, 'green') as g from part
where p_partkey < 50 order by p_partkey;
select s_suppkey, left(s_phone, 2) as country, right(s_phone, 4) as tail, left(s_name, -3) as cut
from supplier where s_suppkey <= 20 order by s_suppkey;
select n_nationkey, lpad(n_name, 12, '*') as l, rpad(n_name, 12, ' ') as r, lpad(n_name, 3, ' ') as short from nation
order by n_nationkey;
select upper(c_mktsegment) as seg, count(*) as n from customer group by upper(c_mktsegment) order by seg;
select count(*) as n from customer where lower(c_mktsegment) = 'building' and length(c_name) = 18;
