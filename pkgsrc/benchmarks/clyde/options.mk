# $NetBSD$
# SPDX-License-Identifier: BSD-2-Clause

PKG_OPTIONS_VAR=	PKG_OPTIONS.clyde
PKG_SUPPORTED_OPTIONS=	hwloc
PKG_SUGGESTED_OPTIONS=	hwloc

.include "../../mk/bsd.options.mk"

.if !empty(PKG_OPTIONS:Mhwloc)
CONFIGURE_ARGS+=	--with-hwloc=yes
.include "../../parallel/hwloc/buildlink3.mk"
.else
CONFIGURE_ARGS+=	--with-hwloc=no
.endif
