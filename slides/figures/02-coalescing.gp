# 02-coalescing.gp: the demo's measurements (gnuplot -e "csv='slides/data/02-coalescing.csv'").
# Left: the strided copy against the stride; right: offset, layout and mapping.
if (!exists("csv")) csv = "slides/data/02-coalescing.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
memcpy = real(system("sed -n 's/^# memcpy_gbps: \\([0-9.]*\\).*/\\1/p' " . csv))
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,405 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set multiplot layout 1,2 title sprintf("Effective bandwidth (useful bytes read + written) on %s; cudaMemcpy %.0f GB/s", gpu, memcpy)
set grid ytics
unset key
set ylabel "GB/s"
set yrange [0:3500]
set xlabel "stride (floats between the elements a warp's threads read)"
set xrange [0:33]
set xtics 4
set title "out[i] = in[i * stride]"
plot csv using ($2):(strcol(1) eq "stride" ? $4 : 1/0) with linespoints lw 2 pt 7 ps 0.7 lc rgb "#d62728"
set xlabel ""
set xrange [-0.7:5.7]
set yrange [0:4400]
set ytics 1000
set xtics rotate by -30 font ",17"
set title "misaligned start, AoS vs SoA, 2D mapping"
set style fill solid 0.85 border -1
set boxwidth 0.6
unset datafile columnheaders
# the rows after the stride sweep: offsets 0 and 1 (grey), then naive (red) against fixed (green)
rows = "< grep -E '^(offset,(0|1),|kick|matrix_add)' " . csv
color(e, p) = e eq "offset" ? 0x999999 : (p eq "aos" || p eq "naive") ? 0xd62728 : 0x2ca02c
plot rows using 0:4:(0.6):(color(strcol(1), strcol(2))):xtic(sprintf("%s %s", strcol(1), strcol(2))) with boxes lc rgb variable, \
     rows using 0:4:(sprintf("%.0f", $4)) with labels rotate by 90 left offset 0,0.4 font ",17"
unset multiplot
