# $NetBSD$
# SPDX-License-Identifier: BSD-2-Clause

PKG_OPTIONS_VAR=	PKG_OPTIONS.clyde
PKG_SUPPORTED_OPTIONS=	hwloc sqlite
PKG_SUGGESTED_OPTIONS=	hwloc sqlite

.include "../../mk/bsd.options.mk"

.if !empty(PKG_OPTIONS:Mhwloc)
CONFIGURE_ARGS+=	--with-hwloc=yes
.include "../../parallel/hwloc/buildlink3.mk"
.else
CONFIGURE_ARGS+=	--with-hwloc=no
.endif

# clyde-report's results history (--db)
.if !empty(PKG_OPTIONS:Msqlite)
CONFIGURE_ARGS+=	--with-sqlite3=yes
.include "../../databases/sqlite3/buildlink3.mk"
.else
CONFIGURE_ARGS+=	--with-sqlite3=no
.endif
