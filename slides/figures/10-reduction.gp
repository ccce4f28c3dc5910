# 10-reduction.gp: the demo's table as bars (gnuplot -e "csv='slides/data/10-reduction.csv'").
# Read bandwidth per rung of the ladder; the dashed line is the copy bandwidth (cudaMemcpy device
# to device, bytes read + written), which the reduction's bytes read are compared with.
if (!exists("csv")) csv = "slides/data/10-reduction.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
size = system("sed -n 's/^# lab: 10-reduction, n = \\([0-9]*\\) elements.*/\\1/p' " . csv)
copy = real(system("sed -n 's/^# copy_gbps: \\([0-9.]*\\).*/\\1/p' " . csv))
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,400 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set title sprintf("Sum of %s floats on %s", size, gpu)
set ylabel "read bandwidth (GB/s, bytes read)"
set yrange [0:copy * 1.3]
set style fill solid 0.85 border -1
set boxwidth 0.6
set grid ytics
set ytics 1000
set xtics rotate by -20 font ",17" noenhanced
set bmargin 5
unset key
set arrow from graph 0, first copy to graph 1, first copy nohead dt 2 lw 2 lc rgb "#555555"
set label sprintf("copy %.0f GB/s (read + written) = 100%%", copy) at graph 0.02, first copy * 1.05 textcolor rgb "#555555"
# red: the given first rung; orange: the ladder (tasks 1-3, two launches); green: one launch
# (tasks 4-5); blue: the int sum
color(name) = name eq "interleaved" ? 0xd62728 : \
    (name eq "sequential" || name eq "first_add" || name eq "shuffle") ? 0xff7f0e : \
    name eq "grid_stride_int" ? 0x1f77b4 : 0x2ca02c
plot csv using 0:3:(0.6):(color(strcol(1))):xtic(1) with boxes lc rgb variable, \
     csv using 0:3:(sprintf("%.0f, %.0f%%", $3, $4)) with labels offset 0,0.8 font ",17"
