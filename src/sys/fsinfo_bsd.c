// SPDX-License-Identifier: BSD-2-Clause
/*
 * Filesystem of a directory on the BSDs: its type, source, mount point and
 * mount flags, from the kernel's own record of the mount.
 *
 * - FreeBSD and DragonFly: statfs(2), struct statfs in <sys/mount.h>;
 *   f_flags is mnt_flag & MNT_VISFLAGMASK (FreeBSD sys/kern/vfs_mount.c
 *   __vfs_statfs(), DragonFly sys/kern/vfs_syscalls.c kern_statfs()).
 * - NetBSD has no struct statfs: statvfs(2), whose struct statvfs in
 *   <sys/statvfs.h> carries f_fstypename, f_mntfromname, f_mntonname and
 *   f_flag = mnt_flag & MNT_VISFLAGMASK (sys/kern/vfs_syscalls.c
 *   dostatvfs()); the MNT_ flags live in <sys/fstypes.h>.
 *
 * Neither gives a filesystem's own options apart from the mount's: the
 * flags above are all statfs/statvfs carry (the options a mount passes
 * beyond them, NFS's rsize or tmpfs's size, are not reported back), so
 * super_options stays "" there and the reports leave it out.
 *
 * configure's member checks choose which fsinfo_get is compiled. The names
 * fit struct fsinfo (FreeBSD's MNAMELEN and NetBSD's _VFS_MNAMELEN are
 * 1024, DragonFly's 80); anything longer is cut visibly and flagged.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/param.h>
#include <sys/mount.h>
#ifdef HAVE_SYS_STATVFS_H
#include <sys/statvfs.h>
#endif

#include "lib/strutil.h"
#include "sys/fsinfo.h"

#if defined(HAVE_STRUCT_STATFS_F_FSTYPENAME) || defined(HAVE_STRUCT_STATVFS_F_FSTYPENAME)
/*
 * The mount flags statfs/statvfs show, as mount(8)'s option words; a row
 * only where that OS's headers define the flag. ro/rw comes first, apart.
 */
struct mount_flag_word {
	uint64_t flag;
	const char *word;
};

static const struct mount_flag_word mount_flag_words[] = {
#ifdef MNT_SYNCHRONOUS
	{ MNT_SYNCHRONOUS, "sync" },
#endif
#ifdef MNT_ASYNC
	{ MNT_ASYNC, "async" },
#endif
#ifdef MNT_NOATIME
	{ MNT_NOATIME, "noatime" },
#endif
#ifdef MNT_RELATIME
	{ MNT_RELATIME, "relatime" },		/* NetBSD */
#endif
#ifdef MNT_NOEXEC
	{ MNT_NOEXEC, "noexec" },
#endif
#ifdef MNT_NOSUID
	{ MNT_NOSUID, "nosuid" },
#endif
#ifdef MNT_NODEV
	{ MNT_NODEV, "nodev" },			/* DragonFly, NetBSD */
#endif
#ifdef MNT_NOSYMFOLLOW
	{ MNT_NOSYMFOLLOW, "nosymfollow" },
#endif
#ifdef MNT_SUIDDIR
	{ MNT_SUIDDIR, "suiddir" },
#endif
#ifdef MNT_UNION
	{ MNT_UNION, "union" },
#endif
#ifdef MNT_SOFTDEP
	{ MNT_SOFTDEP, "softdep" },
#endif
#ifdef MNT_SUJ
	{ MNT_SUJ, "suj" },			/* FreeBSD: journaled soft updates */
#endif
#ifdef MNT_GJOURNAL
	{ MNT_GJOURNAL, "gjournal" },		/* FreeBSD */
#endif
#ifdef MNT_LOG
	{ MNT_LOG, "log" },			/* NetBSD: WAPBL journal */
#endif
#ifdef MNT_MULTILABEL
	{ MNT_MULTILABEL, "multilabel" },	/* FreeBSD */
#endif
#ifdef MNT_ACLS
	{ MNT_ACLS, "acls" },			/* FreeBSD */
#endif
#ifdef MNT_NFS4ACLS
	{ MNT_NFS4ACLS, "nfsv4acls" },		/* FreeBSD */
#endif
#ifdef MNT_EXTATTR
	{ MNT_EXTATTR, "extattr" },		/* NetBSD */
#endif
#ifdef MNT_NOCLUSTERR
	{ MNT_NOCLUSTERR, "noclusterr" },
#endif
#ifdef MNT_NOCLUSTERW
	{ MNT_NOCLUSTERW, "noclusterw" },
#endif
#ifdef MNT_TRIM
	{ MNT_TRIM, "trim" },			/* DragonFly */
#endif
#ifdef MNT_DISCARD
	{ MNT_DISCARD, "discard" },		/* NetBSD */
#endif
#ifdef MNT_NOCOREDUMP
	{ MNT_NOCOREDUMP, "nocoredump" },	/* NetBSD */
#endif
#ifdef MNT_SYMPERM
	{ MNT_SYMPERM, "symperm" },		/* NetBSD */
#endif
#ifdef MNT_NODEVMTIME
	{ MNT_NODEVMTIME, "nodevmtime" },	/* NetBSD */
#endif
#ifdef MNT_QUOTA
	{ MNT_QUOTA, "quota" },
#endif
#ifdef MNT_LOCAL
	{ MNT_LOCAL, "local" },
#endif
#ifdef MNT_AUTOMOUNTED
	{ MNT_AUTOMOUNTED, "automounted" },
#endif
#ifdef MNT_UNTRUSTED
	{ MNT_UNTRUSTED, "untrusted" },		/* FreeBSD */
#endif
};

/* Append ",word" to buf; false when it does not fit (buf is left as was). */
static bool append_word(char *buf, size_t len, const char *word)
{
	size_t n = strlen(buf), w = strlen(word);

	if (n + 1 + w >= len)
		return false;
	buf[n] = ',';
	memcpy(buf + n + 1, word, w + 1);
	return true;
}

/* "rw,noatime,local": the option words of flags; true when cut. */
static bool flags_to_options(uint64_t flags, char *buf, size_t len)
{
	bool cut = str_copy_marked(buf, len, (flags & MNT_RDONLY) ? "ro" : "rw");
	size_t i;

	for (i = 0; i < sizeof(mount_flag_words) / sizeof(mount_flag_words[0]); i++) {
		if (!(flags & mount_flag_words[i].flag))
			continue;
		if (!append_word(buf, len, mount_flag_words[i].word)) {
			append_word(buf, len, "...");
			return true;
		}
	}
	return cut;
}

/* Fill fs from the kernel's names; fs->cut says whether any was cut. */
static void fill(struct fsinfo *fs, const char *type, const char *source,
		 const char *mountpoint, uint64_t flags)
{
	fs->cut = str_copy_marked(fs->type, sizeof(fs->type), type);
	fs->cut |= str_copy_marked(fs->source, sizeof(fs->source), source);
	fs->cut |= str_copy_marked(fs->mountpoint, sizeof(fs->mountpoint), mountpoint);
	fs->cut |= flags_to_options(flags, fs->options, sizeof(fs->options));
}
#endif

#if defined(HAVE_STRUCT_STATFS_F_FSTYPENAME)
int fsinfo_get(const char *dir, struct fsinfo *fs)
{
	struct statfs sfs;

	memset(fs, 0, sizeof(*fs));
	if (statfs(dir, &sfs))
		return -errno;
	/*
	 * FreeBSD's f_flags is uint64_t (MNT_SUJ is bit 32), DragonFly's an
	 * int: widened, its bit 31 may spread upwards, where DragonFly
	 * defines no flag.
	 */
	fill(fs, sfs.f_fstypename, sfs.f_mntfromname, sfs.f_mntonname, (uint64_t)sfs.f_flags);
	return 0;
}
#elif defined(HAVE_STRUCT_STATVFS_F_FSTYPENAME)
int fsinfo_get(const char *dir, struct fsinfo *fs)
{
	struct statvfs svfs;

	memset(fs, 0, sizeof(*fs));
	if (statvfs(dir, &svfs))
		return -errno;
	fill(fs, svfs.f_fstypename, svfs.f_mntfromname, svfs.f_mntonname, (uint64_t)svfs.f_flag);
	return 0;
}
#else
int fsinfo_get(const char *dir, struct fsinfo *fs)
{
	(void)dir;
	memset(fs, 0, sizeof(*fs));
	return -ENOSYS;
}
#endif
