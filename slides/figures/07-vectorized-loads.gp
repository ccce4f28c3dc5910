# 07-vectorized-loads.gp: the demo's table as bars (gnuplot -e "csv='slides/data/07-vectorized-loads.csv'").
# The title names the GPU the CSV was measured on; the dashed line is cudaMemcpy.
if (!exists("csv")) csv = "slides/data/07-vectorized-loads.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
memcpy = real(system("sed -n 's/^# memcpy_gbps: \\([0-9.]*\\).*/\\1/p' " . csv))
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,405 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set title sprintf("2^26 ints, one block of 256 threads per SM, on %s", gpu)
set ylabel "effective bandwidth (GB/s, read + write)"
set yrange [0:memcpy * 1.15]
set style fill solid 0.85 border -1
set boxwidth 0.6
set grid ytics
set xtics rotate by -20 font ",17"
set bmargin 5
unset key
set arrow from graph 0, first memcpy to graph 1, first memcpy nohead dt 2 lw 2 lc rgb "#555555"
set label sprintf("cudaMemcpy %.0f GB/s (100%%)", memcpy) at graph 0.02, first memcpy * 1.04 textcolor rgb "#555555"
# red: one int per access; orange: int2; green: int4; grey: int4 on unaligned pointers (scalar path)
color(name) = strstrt(name, "+1") ? 0x999999 : strstrt(name, "int4") ? 0x2ca02c : strstrt(name, "int2") ? 0xff7f0e : 0xd62728
plot csv using 0:3:(0.6):(color(strcol(1))):xtic(1) with boxes lc rgb variable, \
     csv using 0:3:(sprintf("%.0f%%", $4)) with labels offset 0,0.8 font ",17"
