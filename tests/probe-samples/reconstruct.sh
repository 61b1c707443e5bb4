#!/bin/sh
# Write the sample trees for storage paths this build machine does not have (9p, virtiofs,
# vboxsf, hgfs, drvfs, nfs, cifs, dm, nvme, ahci ...). They are reconstructed from the layouts
# the kernel documents and guests show (mountinfo lines, sysfs driver links), not recorded;
# replace one with a recording (record.sh) whenever a real guest is at hand.
#   tests/probe-samples/reconstruct.sh [DIR]    (default: the directory of this script)
set -eu

top=${1:-$(dirname "$0")}

# tree NAME: start a fresh tree
tree() {
	r=$top/$1
	rm -rf "$r"
	mkdir -p "$r/proc/self" "$r/proc/1" "$r/sys/dev/block"
}

# put FILE TEXT: a file below the tree
put() {
	mkdir -p "$(dirname "$r/$1")"
	printf '%s\n' "$2" > "$r/$1"
}

# dmi VENDOR PRODUCT BIOS
dmi() {
	put sys/class/dmi/id/sys_vendor "$1"
	put sys/class/dmi/id/product_name "$2"
	put sys/class/dmi/id/bios_vendor "$3"
}

# disk SYSPATH MAJ:MIN LBS PBS ROT SCHED CACHE NR MAXKB: a block device below sys/devices
disk() {
	d=sys/devices/$1
	put "$d/dev" "$2"
	put "$d/queue/logical_block_size" "$3"
	put "$d/queue/physical_block_size" "$4"
	put "$d/queue/rotational" "$5"
	put "$d/queue/scheduler" "$6"
	put "$d/queue/write_cache" "$7"
	put "$d/queue/nr_requests" "$8"
	put "$d/queue/max_sectors_kb" "$9"
	ln -s "../../devices/$1" "$r/sys/dev/block/$2"
}

# part SYSPATH MAJ:MIN NUMBER: a partition directory inside its disk's
part() {
	put "sys/devices/$1/dev" "$2"
	put "sys/devices/$1/partition" "$3"
	ln -s "../../devices/$1" "$r/sys/dev/block/$2"
}

# driver SYSPATH BUS NAME: a driver link on a device directory
driver() {
	mkdir -p "$r/sys/devices/$1"
	ln -s "../../../../bus/$2/drivers/$3" "$r/sys/devices/$1/driver"
}

# devlink BLOCKDIR TARGET: the block device's "device" link (relative), and the target dir
devlink() {
	mkdir -p "$r/sys/devices/$1" "$(dirname "$r/sys/devices/$1")/$2"
	ln -s "$2" "$r/sys/devices/$1/device"
}

PCI=pci0000:00

# QEMU (TCG) guest: root on a virtio-blk partition, 9p shares in each cache mode.
tree qemu-9p
dmi QEMU "Standard PC (i440FX + PIIX, 1996)" SeaBIOS
put proc/version "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"
put proc/1/cgroup "0::/init.scope"
put proc/self/mountinfo "20 1 254:1 / / rw,relatime - ext4 /dev/vda1 rw,errors=remount-ro
21 20 0:20 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw
22 20 0:21 / /sys rw,nosuid,nodev,noexec,relatime - sysfs sysfs rw
30 20 0:33 / /mnt/none rw,relatime - 9p shared rw,access=client,msize=512000,trans=virtio
31 20 0:34 / /mnt/loose rw,relatime - 9p shared rw,cache=loose,access=client,msize=512000,trans=virtio
32 20 0:35 / /mnt/mmap rw,relatime - 9p shared rw,cache=5,access=client,msize=512000,trans=virtio
33 20 0:36 / /mnt/fscache rw,relatime - 9p shared rw,cache=8f,access=client,msize=512000,trans=virtio
34 20 0:37 / /mnt/dotu rw,relatime - 9p shared rw,access=user,version=9p2000.u,trans=virtio
35 20 0:38 / /mnt/old rw,relatime - 9p shared rw,mmap,access=client,trans=virtio
36 20 0:39 / /mnt/my\\040share rw,relatime - 9p my\\040share rw,access=client,msize=131072,trans=virtio
37 20 0:40 / /mnt/none/inner rw,relatime - tmpfs tmpfs rw,size=8192k"
disk $PCI/0000:00:04.0/virtio1/block/vda 254:0 512 512 1 "[mq-deadline] none" "write back" 256 1280
part $PCI/0000:00:04.0/virtio1/block/vda/vda1 254:1 1
devlink $PCI/0000:00:04.0/virtio1/block/vda ../../../virtio1
put sys/devices/$PCI/0000:00:04.0/virtio1/vendor 0x1af4
driver $PCI/0000:00:04.0/virtio1 virtio virtio_blk
driver $PCI/0000:00:04.0 pci virtio-pci

# QEMU q35 guest: root on NVMe, virtiofs shares (one with DAX).
tree qemu-virtiofs
dmi QEMU "Standard PC (Q35 + ICH9, 2009)" "EFI Development Kit II / OVMF"
put proc/version "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"
put proc/self/mountinfo "20 1 259:2 / / rw,relatime - xfs /dev/nvme0n1p2 rw,attr2,inode64,logbufs=8,logbsize=32k,noquota
40 20 0:45 / /mnt/vfs rw,relatime - virtiofs vfs rw
41 20 0:46 / /mnt/vfsdax rw,relatime - virtiofs vfsdax rw,dax=always"
disk $PCI/0000:00:05.0/nvme/nvme0/nvme0n1 259:0 512 512 0 "[none] mq-deadline" "write back" 1023 512
part $PCI/0000:00:05.0/nvme/nvme0/nvme0n1/nvme0n1p2 259:2 2
devlink $PCI/0000:00:05.0/nvme/nvme0/nvme0n1 ../../nvme0
put sys/devices/$PCI/0000:00:05.0/nvme/nvme0/model "QEMU NVMe Ctrl"
driver $PCI/0000:00:05.0 pci nvme

# VirtualBox guest: root on an AHCI disk, a vboxsf shared folder.
tree virtualbox
dmi "innotek GmbH" VirtualBox "innotek GmbH"
put proc/version "Linux version 5.15.0-91-generic (buildd@lcy02-amd64-045) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023"
put proc/self/mountinfo "25 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro
60 25 0:50 / /media/sf_shared rw,nodev,relatime shared:30 - vboxsf shared rw,ttl=0,dirbuf=0,uid=0,gid=999,dmode=770,fmode=770"
disk $PCI/0000:00:0d.0/ata3/host2/target2:0:0/2:0:0:0/block/sda 8:0 512 512 1 "[mq-deadline] none" "write back" 64 1280
part $PCI/0000:00:0d.0/ata3/host2/target2:0:0/2:0:0:0/block/sda/sda1 8:1 1
devlink $PCI/0000:00:0d.0/ata3/host2/target2:0:0/2:0:0:0/block/sda ../../../2:0:0:0
put "sys/devices/$PCI/0000:00:0d.0/ata3/host2/target2:0:0/2:0:0:0/model" "VBOX HARDDISK"
put "sys/devices/$PCI/0000:00:0d.0/ata3/host2/target2:0:0/2:0:0:0/vendor" "ATA"
driver "$PCI/0000:00:0d.0/ata3/host2/target2:0:0/2:0:0:0" scsi sd
driver $PCI/0000:00:0d.0 pci ahci

# VMware guest: root on LVM over a pvscsi disk partition, an hgfs share through FUSE.
tree vmware
dmi "VMware, Inc." "VMware Virtual Platform" "Phoenix Technologies LTD"
put proc/version "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"
put proc/self/mountinfo "26 1 253:0 / / rw,relatime - ext4 /dev/mapper/vg-root rw,errors=remount-ro
70 26 0:52 / /mnt/hgfs rw,nosuid,nodev,relatime - fuse.vmhgfs-fuse vmhgfs-fuse rw,user_id=0,group_id=0,allow_other"
S=$PCI/0000:00:15.0/0000:03:00.0/host2/target2:0:0/2:0:0:0
disk virtual/block/dm-0 253:0 512 512 0 none "write through" 128 1280
put sys/devices/virtual/block/dm-0/dm/name vg-root
disk $S/block/sda 8:0 512 512 0 "[mq-deadline] none" "write through" 254 1280
part $S/block/sda/sda3 8:3 3
mkdir -p "$r/sys/devices/virtual/block/dm-0/slaves"
ln -s "../../../../$S/block/sda/sda3" "$r/sys/devices/virtual/block/dm-0/slaves/sda3"
devlink $S/block/sda ../../../2:0:0:0
put "sys/devices/$S/model" "Virtual disk"
put "sys/devices/$S/vendor" "VMware"
driver "$S" scsi sd
driver $PCI/0000:00:15.0/0000:03:00.0 pci vmw_pvscsi
driver $PCI/0000:00:15.0 pci pcieport

# WSL2: root on a Hyper-V storvsc disk, Windows C: as 9p with aname=drvfs.
tree wsl2
put proc/version "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) (gcc (GCC) 11.2.0, GNU ld (GNU Binutils) 2.37) #1 SMP Fri Mar 29 23:14:13 UTC 2024"
put proc/self/mountinfo "65 1 8:32 / / rw,relatime - ext4 /dev/sdc rw,discard,errors=remount-ro,data=ordered
90 65 0:60 / /mnt/c rw,noatime - 9p C:\\134 rw,dirsync,aname=drvfs;path=C:\\;uid=1000;gid=1000;symlinkroot=/mnt/,mmap,access=client,msize=65536,trans=fd,rfd=5,wfd=5"
V=LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/f8b3781b-1e82-4818-a1c3-63d806ec15bb
disk "$V/host0/target0:0:0/0:0:0:2/block/sdc" 8:32 512 4096 0 "[mq-deadline] none" "write back" 2 1280
devlink "$V/host0/target0:0:0/0:0:0:2/block/sdc" ../../../0:0:0:2
put "sys/devices/$V/host0/target0:0:0/0:0:0:2/model" "Virtual Disk"
put "sys/devices/$V/host0/target0:0:0/0:0:0:2/vendor" "Msft"
driver "$V/host0/target0:0:0/0:0:0:2" scsi sd
driver "$V" vmbus hv_storvsc

# WSL1: no real kernel; Windows drives are drvfs.
tree wsl1
put proc/version "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com) (gcc version 5.4.0 (GCC) ) #1237-Microsoft Sat Sep 11 14:32:00 PST 2021"
put proc/self/mountinfo "2 0 0:2 / / rw,noatime - lxfs rootfs rw
5 2 0:5 / /mnt/c rw,noatime - drvfs C:\\134 rw,case=off"

# A cloud VM (EC2, Nitro NVMe) with NFS and SMB mounts.
tree ec2-network
dmi "Amazon EC2" m5.large "Amazon EC2"
put proc/version "Linux version 6.1.0-18-cloud-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"
put proc/self/mountinfo "24 1 259:1 / / rw,relatime - ext4 /dev/nvme0n1p1 rw,discard,errors=remount-ro
80 24 0:55 / /mnt/nfs rw,relatime - nfs4 fs-1234.efs.us-east-1.amazonaws.com:/ rw,vers=4.1,rsize=1048576,wsize=1048576,namlen=255,hard,noresvport,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=10.0.0.5,local_lock=none,addr=10.0.0.9
81 24 0:56 / /mnt/smb rw,relatime - cifs //fileserver/share rw,vers=3.1.1,cache=strict,username=bench,uid=0,noforceuid,gid=0,noforcegid,addr=10.0.0.10,file_mode=0755,dir_mode=0755,soft,nounix,serverino,mapposix,rsize=4194304,wsize=4194304,bsize=1048576,echo_interval=60,actimeo=1,closetimeo=1
82 24 0:57 / /mnt/nfs3 rw,relatime - nfs 10.0.0.11:/export rw,vers=3,rsize=65536,wsize=65536,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,mountaddr=10.0.0.11,mountvers=3,mountport=20048,mountproto=udp,local_lock=none,addr=10.0.0.11"
disk $PCI/0000:00:04.0/nvme/nvme0/nvme0n1 259:0 512 512 0 "[none] mq-deadline" "write back" 255 256
part $PCI/0000:00:04.0/nvme/nvme0/nvme0n1/nvme0n1p1 259:1 1
devlink $PCI/0000:00:04.0/nvme/nvme0/nvme0n1 ../../nvme0
put sys/devices/$PCI/0000:00:04.0/nvme/nvme0/model "Amazon Elastic Block Store"
driver $PCI/0000:00:04.0 pci nvme

# A Docker container on some Linux host: overlay root, cgroup v1 path naming docker.
tree docker
: > "$r/.dockerenv"
put proc/1/cgroup "12:memory:/docker/3f2a6d0c1b5e
0::/docker/3f2a6d0c1b5e"
put proc/version "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"
put proc/self/mountinfo "500 400 0:70 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/ABC:/var/lib/docker/overlay2/l/DEF,upperdir=/var/lib/docker/overlay2/123/diff,workdir=/var/lib/docker/overlay2/123/work
501 500 0:71 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw
510 500 254:1 /home/me/data /data rw,relatime - ext4 /dev/vda1 rw"

# Docker Desktop for Mac: bind mounts arrive as fuse.grpcfuse or virtiofs (fakeowner).
tree docker-desktop
: > "$r/.dockerenv"
put proc/self/mountinfo "600 500 0:80 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w
610 600 0:90 /Users/me/src /src rw,relatime - fuse.grpcfuse grpcfuse rw,user_id=0,group_id=0,allow_other,max_read=1048576
611 600 0:91 /Users/me/data /data rw,relatime - fakeowner fakeowner rw"

# Podman: marked by /run/.containerenv.
tree podman
put run/.containerenv 'engine="podman-4.3.1"'
put proc/self/mountinfo "700 600 0:100 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w"
