"""Known-good checksums of every raw data file, and the one function that reads them.

The table is copied from ``shared/data/MANIFEST.md`` §6 (path relative to the data root ->
(bytes, sha256, git blob SHA-1)). It lives in Python, not in a data file, so an installed copy of
the package always carries it. A file is read into memory once, hashed, and only then parsed
from those same bytes, so what is parsed is exactly what was verified.
"""

from __future__ import annotations

import hashlib
import os
from typing import NamedTuple

#: path (relative to the data root) -> (size in bytes, sha256, git blob SHA-1)
CHECKSUMS = {
    "coauthor/ms_academic_cs.npz": (
        12835626, "933c745734e78908c7eb77172a673fee0503f30e26e5a99b36814d88534c42e3",
        "9bdd7da943d86b74297e8d32e99eb64245b52835"),
    "coauthor/ms_academic_phy.npz": (
        16374005, "e4d68468eba5fb8f6b280ffd406bd53e6e4295ba1dd2967d6fe99b978e4b3375",
        "8d8bc12e29aa67f6753a712080eae81079bd7d01"),
    "geom-gcn/cornell/out1_graph_edges.txt": (
        2001, "c4522a00cc40873c8a04a3a07c49e24a48a507eb284ac9c9f2d3e0590351bbb7",
        "f4439ae3ed14abbbddaf66774e312d865faae803"),
    "geom-gcn/cornell/out1_node_feature_label.txt": (
        624308, "cf5a3ca346cdd1210b8342e22517fcbbdae658065b7a3145f59350e50e6236a3",
        "b24f9e51ebfc1e3a975fd8be5310684af08fea7d"),
    "geom-gcn/film/out1_graph_edges.txt": (
        323820, "997cdce67ea9c29257d3ffe796328391931901cf823830affa453178b60e2c3e",
        "e92133d8897d729073080850c2136729936d6c18"),
    "geom-gcn/film/out1_node_feature_label.txt": (
        207718, "1d5cdd094f8b91e770f6decfca85b35cf42f75d1efb51055fd6af16e11820ff8",
        "35e53e3159154985ea335e133cd44475868f2f5c"),
    "geom-gcn/splits/cornell_split_0.6_0.2_0.npz": (
        704, "14022a1e19ec7fc0a07a2c06a785a2f9dc52809dbcd1c14fc318f7800675d73f",
        "0ff8b4c668caf018df8bec19d2ecea1e550ce6cf"),
    "geom-gcn/splits/cornell_split_0.6_0.2_1.npz": (
        700, "5568fa27e968a724c92211bf97026a36a08893cf94b218043e49b4c973c35cfb",
        "e56ff45d76c4b9ca16803ad8e9f7dc771acb78e8"),
    "geom-gcn/splits/cornell_split_0.6_0.2_2.npz": (
        695, "763fc1f423395e4172617fa5b6bc0d7adad2241e5fedd1a4f0a098a67f9dc8e9",
        "a8b5b48c3dd99be72a3675b769596e920fb5ae6e"),
    "geom-gcn/splits/cornell_split_0.6_0.2_3.npz": (
        701, "4334321cd9ec42de9d51107fb9a6dc310512e0921bc1cff0f390301ee37315fa",
        "7a139fa8a6015205f276605359f14ff99a41bd16"),
    "geom-gcn/splits/cornell_split_0.6_0.2_4.npz": (
        759, "2b6b3ef396f4dc7fcdc276fb16b88bb87409b25879dd672b3a506eca844dd8d7",
        "ab74f035705cd8ceb3877bae75e5e02c9eb26dc8"),
    "geom-gcn/splits/cornell_split_0.6_0.2_5.npz": (
        754, "1a40ef8b20aa9e1aa850e1abdaba3efac1f66c98ef2c6a59eadefa21136ece6b",
        "d6cc9d39c43b1145b7490b9492546138269bfb65"),
    "geom-gcn/splits/cornell_split_0.6_0.2_6.npz": (
        758, "bcddf4ab59eae4c7d47b8a6cec9025a54ec0e6d3f3bdcd7678e201f25ace4642",
        "e2d15117be12e4132aca5c49cd1d669536279b2c"),
    "geom-gcn/splits/cornell_split_0.6_0.2_7.npz": (
        693, "2b497e12dfc123d7e7c9bb4fc4a82b5bee18409e109a3e3a04da439cacec964d",
        "a55eabc6528e738fa4e651a488f0986ad734ee47"),
    "geom-gcn/splits/cornell_split_0.6_0.2_8.npz": (
        701, "5c4e110d252d7ad156b2e4cd34b6dbd1cecbcc1755f8d72e932cc2a54f2b643c",
        "eedda431e57392f7d4e69106209f8775255b3263"),
    "geom-gcn/splits/cornell_split_0.6_0.2_9.npz": (
        704, "80f1531807194d301affbf6f879a4ab4f56a19bdccb62d192e3ecd1b5275f052",
        "3c5f5320e6c10a5a27770811a84ddf7b413b5812"),
    "geom-gcn/splits/film_split_0.6_0.2_0.npz": (
        4214, "4505a41d4e90abd94d1ec22571ce528b09ad7cf20d87f764aebd4177590767f5",
        "e33c41a0991c23a8111bb633676e91e4967862a4"),
    "geom-gcn/splits/film_split_0.6_0.2_1.npz": (
        4231, "1871b0d24e3977c41e378fd24acc8025b63f86b77739be77a5b558d1287f207d",
        "31b745751814c2c15ca02567799fc1ae9e5216e1"),
    "geom-gcn/splits/film_split_0.6_0.2_2.npz": (
        4224, "d26680e911ef3ecc9fc2a26d90c9d35028c63aadd7a5aea774649d1496c282cb",
        "2d2085d8bd2057683e944cf0a245cbc91077844e"),
    "geom-gcn/splits/film_split_0.6_0.2_3.npz": (
        4207, "6755ad5f6a0be8594b344af3d2261eed935b83b73c4d70136e1a7beea7f78cb0",
        "fca2b232bc65b4e2438ed91d21c0464ad4bce26b"),
    "geom-gcn/splits/film_split_0.6_0.2_4.npz": (
        4233, "328fdca62b25074f21f2922518e042f24b3b8a1fc378f9dfb2cae36439aed902",
        "f32667028a3296e892877078c89680d1d1071ae9"),
    "geom-gcn/splits/film_split_0.6_0.2_5.npz": (
        4224, "5b3161a8dc8de4b2e651ebd56d68e768d1377044895b325566117fe26ab81cb7",
        "43b14a95480ab1f51907fc76928410069f04bd0e"),
    "geom-gcn/splits/film_split_0.6_0.2_6.npz": (
        4221, "e251b38abd4d7931b5e9ae5aba99dcdf87f0be283bdf6e65421274a1c9ef1df6",
        "497c620b6d1fd679cd1ed4a1a414f41f138f997e"),
    "geom-gcn/splits/film_split_0.6_0.2_7.npz": (
        4205, "12164ef9f5620a2f12a387f4f2b8636859d42201101d6d32829ade62d5a98326",
        "748f205495fc00bf546a06d35403e59c62c5c747"),
    "geom-gcn/splits/film_split_0.6_0.2_8.npz": (
        4217, "405cd1f7f631f678119f8bf2405809e86614d532985beb59566fcf95abd35b3f",
        "e639ad254a823e6ad12f88f344b00765206d5616"),
    "geom-gcn/splits/film_split_0.6_0.2_9.npz": (
        4208, "505691c5d41bb37b20d085415dcdde2e8e68b5bc4e1feb2c0e361308002012bb",
        "50a8af11775cdab75145cb6d498f09af5bcf09f6"),
    "geom-gcn/splits/texas_split_0.6_0.2_0.npz": (
        698, "7ba77bf7a8856fcc0ab15623a611b8cdce994e820f577da914123fb4f45272b0",
        "e6a723f1fcf27681c88c12a2c905ff6d2e47cf92"),
    "geom-gcn/splits/texas_split_0.6_0.2_1.npz": (
        701, "21cc244a96e3c51ad7993afb4dd227f90e467d82b964bb42d7d9fc500a6ef87f",
        "c0fb2a0fe2aee8994a5931c813e2f7a6abe3de7e"),
    "geom-gcn/splits/texas_split_0.6_0.2_2.npz": (
        756, "b9e96a699ccf3a4c31ffbd03e52b25570889833425d20fa44e06c37b327cf61e",
        "8d3763e7db4ec5efbcdd0438b8bac80756bd27d9"),
    "geom-gcn/splits/texas_split_0.6_0.2_3.npz": (
        759, "1a7deeb1285009789d5e6045d7e39f7d019c9223d9a75a2b7ce5e26d33b51f63",
        "5e8dc95b34b8bda3e7390df72c4d0bf247477d75"),
    "geom-gcn/splits/texas_split_0.6_0.2_4.npz": (
        702, "b5419ff3fe31adcae66fdb085d4f47d0b188e9436ab59f438632af969aafc674",
        "d8dffbf4c95253ff91a89befafce3d491de863f5"),
    "geom-gcn/splits/texas_split_0.6_0.2_5.npz": (
        691, "68405fd1b9ff6105d99717220ecbd198785e338bf4a73abee722bbc9703d2667",
        "353edcc4e2f8ed6c1b8f150ea6ee6c4bfb0fc07c"),
    "geom-gcn/splits/texas_split_0.6_0.2_6.npz": (
        756, "8ad78b973164e70e5ac0d282e79adcbc6006e373909fbdfd72a13131e09040b8",
        "f8246dcfd8569916754618b37998da9315ae8645"),
    "geom-gcn/splits/texas_split_0.6_0.2_7.npz": (
        693, "a84bcbf997365bddf5fdf72ed49dc7e435e475f8c6210f8cdee7c8581a2bd6df",
        "25b43098d31e0889c77d66728e7552e20584c629"),
    "geom-gcn/splits/texas_split_0.6_0.2_8.npz": (
        762, "65ba65f296f91d40d2d7d3c9369b67415094a7e254c6eee48cd6d6531c586fdf",
        "8518c867a15f421293d6059cf0bece2678f33817"),
    "geom-gcn/splits/texas_split_0.6_0.2_9.npz": (
        693, "4306981d654ad8835c000c1f73fb6c1e60dfe99e26c13a6073f3b0f4cc3ce6ee",
        "fbb5236e70dc8b756c088bf5d22f95415456a908"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_0.npz": (
        805, "f66f641e191d35d491cd3b63d6c2cd93c4b436da398984b44c19a8d4d7e7b1a5",
        "7075eb3f93c1d3b83e06da64668e210b227121b1"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_1.npz": (
        739, "534aeb97266bd5a85a8587adf8eebad3f2e001c1240610f24b62c0ad0c2466ee",
        "ab9f390a256fa1ae2424142d3a3dd28003bf72a9"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_2.npz": (
        747, "047a5b641778ec3a4c76055fd7f18ecb2424c0952f20dfff7e1b17749d8acbdd",
        "9f145e3f4a1bc7f4d946171d39af44b79e4cb1db"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_3.npz": (
        810, "706c27b4c51d046c0316f1e915f093e4a1fff48b3436b3e7c421eab596a99e77",
        "36eaef8112140da094d95131f9bba04569636900"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_4.npz": (
        812, "7ee813605eec086457aaff022cf3837f2f893fcf8bd37e3a8d2ff0c80e4c4f87",
        "19ba295b6a92e3a91f4bb5c359794427d797b6bc"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_5.npz": (
        749, "8094ac2bdaf2cbea8f7a48df66a0800c809b2fd5942740e6b0441b660d3a0dd5",
        "357cf114cee0bd3fe236ba05916e006bfc4dc581"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_6.npz": (
        735, "c423a8deea9b18f9ecb6cfd703578e2159df167de01fe7e6195b88995010252d",
        "bd225997a9503295914bb6ffa0d94b99b7fe297a"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_7.npz": (
        733, "57ad808c8d4dd94dc4404124370bbcebb3dcc597c2bea6457bf05f220adf1527",
        "fd8e63a89afd4a1fa4a9f5478ec06ad05d020b94"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_8.npz": (
        741, "27d4d62a2a6aea2cdc399302237512ab0d64fb0c84e648112f97c5896274e42f",
        "3103eb8c6bf0b293942045d364ce5e332ade24d0"),
    "geom-gcn/splits/wisconsin_split_0.6_0.2_9.npz": (
        744, "3c149cd124a19021031609e0d7743a7be59aae4f88c8d38410138e8f06f5daaf",
        "33f296fe7cc603e6045a291af964902c31afe95a"),
    "geom-gcn/texas/out1_graph_edges.txt": (
        2172, "0fe85183243a78cbee9b85a684f8240963d04d1020d10e9cd2b8cfb25e33b476",
        "f47b4a0405222a66eaf8876444d1d2c45203fd7a"),
    "geom-gcn/texas/out1_node_feature_label.txt": (
        624308, "cf5a3ca346cdd1210b8342e22517fcbbdae658065b7a3145f59350e50e6236a3",
        "b24f9e51ebfc1e3a975fd8be5310684af08fea7d"),
    "geom-gcn/wisconsin/out1_graph_edges.txt": (
        3606, "ebd213511c88fce1eda450c2f920600c4b8cbb38f02384856bcc47c6ec1807ae",
        "42346ca61adf306e27434ba195219109fb043733"),
    "geom-gcn/wisconsin/out1_node_feature_label.txt": (
        856324, "a32b0aa38d42f0d36841e8a8cb646d197f0ff33a182ac75a2b4476aeed3c7e4b",
        "2026f5b940af57f558680f5c6f126053cb2cbd27"),
    "planetoid/ind.citeseer.allx": (
        595021, "2ac30345d95c9ec933a817ee0bdd6a5f077f8c184a20e696910192d534414668",
        "592091071ac35b78599c722d0e60b1c655711728"),
    "planetoid/ind.citeseer.ally": (
        55623, "f704b2d986dde6c2669934de1f3ae5696a6cf9455c0f6b2646a2d135ea0a1c95",
        "7503f81a0b6ac1cc21cb5a97073542a6b1dfe99c"),
    "planetoid/ind.citeseer.graph": (
        61987, "d79a4ef9d3e7169aee8946145f6b7306e35bc79bffad26346cfb94e10e9912a7",
        "a01dca663d0103c130f525017a4a9c313037e286"),
    "planetoid/ind.citeseer.test.index": (
        5000, "2af990671580b6b2df5d158d1038f8292e30c9cd821b5453f399659b25b723d4",
        "62d9e3d5ed53c66b069125af98529d76c70d9b3e"),
    "planetoid/ind.citeseer.tx": (
        260321, "539a8906a2da97628d212f2fdd668c109a8b3f0d36574b59e5d3fd5b5303da21",
        "b2aff18aa1fc6f4f5e8c64db7643b59b24e42584"),
    "planetoid/ind.citeseer.ty": (
        24135, "55e5bd1ba1e733a04598753ad1a8d57957f4b8f89e74519f41f4f4938767e4ce",
        "3795f79df0cd1123f4478b77c148a5fbacc4cefb"),
    "planetoid/ind.citeseer.x": (
        31087, "d20de19150741e555de0ed037195630fc194114ebc7fd72ced62810148aa22f6",
        "f094104a66f2689ffbd01085fe6a856689e9db9e"),
    "planetoid/ind.citeseer.y": (
        3014, "8ba87e515d8e3ee3cf52f6d2c5b86aa73f11ecad825a808455209ec26cd54924",
        "e857ac49b611da98e101a068cf4855350274f68a"),
    "planetoid/ind.cora.allx": (
        257305, "9419ba2f26f5c35243db64aba110e0f35a04851609e0dc5433450676ca6b8543",
        "44d53b1fece343538e45592caac521d73c6f98d6"),
    "planetoid/ind.cora.ally": (
        47959, "2b998f5cc7fedc86e7f97ca2498f47a1ffc1462c29e2d578b23bf3f62b6e7d71",
        "04fbd0b083d09341fcf16b395c642329637f0542"),
    "planetoid/ind.cora.graph": (
        59847, "58f13302f39dde8852dad6fe6d15b89b077b6d7f837626bce671ef80344b383d",
        "4d3bf85dfc8b1c105a2c995597a1b3eed6947925"),
    "planetoid/ind.cora.test.index": (
        5000, "297ce89af2b51a6a194181c7dbe1796c6a1cf9cd9349a88383b1b1e227867875",
        "ded8092db4cd767a367eebe09003b954a5316f24"),
    "planetoid/ind.cora.tx": (
        148025, "b9afbaa4a400df991f6f02ef677e1e44da55ffc04801fd02f9e673987829226a",
        "6e856d777401ee15dc8619db76c97d0a40ba2d60"),
    "planetoid/ind.cora.ty": (
        28135, "41f5ac76596a1699cc33f53084a2419e92961c42bb75f36fc38e616d348532ad",
        "da1734ab670b5c8ecee78a9c30b35566df916f4b"),
    "planetoid/ind.cora.x": (
        22119, "23cfa55d91c6f624233f5eb7b6e3f141f1bd2b2ae39608a63cf5d084bb27baab",
        "c4a91d008245403e7f26aa616b437191509793c0"),
    "planetoid/ind.cora.y": (
        4054, "94465c14eb53e04ca262198dcbb2521ee8af60fb3f3d546cd6ca24a511b0e7d1",
        "58e30ef120d3553cfaac33ff28c6b5436dbef661"),
    "planetoid/ind.pubmed.ally": (
        224739, "0c37bbe3b5014ec365e9d393cf4791925e5ed94fb194305d74f064a8d7b50f0e",
        "4c8bcdc80882dd225fe4dd4fafd723baa616ac97"),
    "planetoid/ind.pubmed.graph": (
        471808, "5b89f0036ca22909471f1e6558eb42fa06e0c730a577bde5b058b40638f81dc9",
        "76eb87e628a6b9d43fc31ea42c8c6c8f3e52b404"),
    "planetoid/ind.pubmed.test.index": (
        6000, "b101d421688bbaecbd82e8a18f1e282378d6830f3a37666f28ebc47f844341b5",
        "41f6befcb7750cc4858cb852f2b349a9598cb2f4"),
    "planetoid/ind.pubmed.tx": (
        405505, "4eb5f5d0f30f26497eb0ac6ac9719d09c67e284f1ed0385c93f3ef27a671da3d",
        "eee4f3c988fde0da87a9ec7b01ca5e7863c1b1f1"),
    "planetoid/ind.pubmed.ty": (
        12135, "ee2e0d4819d9fbcc403689c3bf2e49face401b605932f093bc58ab6461130fdd",
        "225a0bb9bb6430e3925d04688daf6a0da964c07a"),
    "planetoid/ind.pubmed.x": (
        23172, "fbe9cb5c47200d1b7769a26e579be3b7130b556831f9d850e77c4c74f2599b33",
        "16c0eca8d2b3297014ff80327416f9332eda10d7"),
    "planetoid/ind.pubmed.y": (
        854, "e6c807633307a07ed659249006536a147c7999c797f11a2560752990181b41b3",
        "e86670576c85340eeb2271b3c918bfa89322b2cf"),
}

#: Files that may be absent; only their git blob SHA-1 is known (``git hash-object``).
OPTIONAL_GIT_BLOBS = {
    # kimiyoung/planetoid @ af6abf468a772cc055bec88c52e4d6f51b7c37e3 : data/ind.pubmed.allx
    "planetoid/ind.pubmed.allx": "3b86bccf08111c37c632a9dd8ab63db25ea76361",
}

class Source(NamedTuple):
    """Where a data file comes from: a GitHub repository, the pinned commit and the file's path
    there (the data MANIFEST's "source repository @ commit : path")."""

    repo: str
    commit: str
    path: str

    def __str__(self):
        return f"{self.repo} @ {self.commit} : {self.path}"


#: Top folder of the data root -> (repository, pinned commit, how a path below the top folder
#: maps to the repository's path). One row per source repository of MANIFEST §6.
REPOSITORIES = {
    "planetoid": ("kimiyoung/planetoid", "af6abf468a772cc055bec88c52e4d6f51b7c37e3",
                  lambda rest: f"data/{rest}"),
    "geom-gcn": ("graphdml-uiuc-jlu/geom-gcn", "f1fc0d14b3b019c562737240d06ec83b07d16a8f",
                 lambda rest: rest if rest.startswith("splits/") else f"new_data/{rest}"),
    "coauthor": ("shchur/gnn-benchmark", "1e72912a0810cdf27ae54fd589a3b43358a2b161",
                 lambda rest: f"data/npz/{rest}"),
}


def source(relpath):
    """The :class:`Source` of the data file ``relpath`` (relative to the data root).

    Examples
    --------
    >>> src = source("geom-gcn/film/out1_graph_edges.txt")
    >>> src.repo, src.path
    ('graphdml-uiuc-jlu/geom-gcn', 'new_data/film/out1_graph_edges.txt')
    """
    top, _, rest = relpath.partition("/")
    if top not in REPOSITORIES or not rest:
        raise KeyError(f"no source recorded for {relpath!r}")
    repo, commit, path = REPOSITORIES[top]
    return Source(repo, commit, path(rest))


_HOWTO = "`ngc-ref data fetch` downloads it (data/README.md)"
_REPLACE = "delete it and run `ngc-ref data fetch` (data/README.md)"


def git_blob_sha1(data):
    """SHA-1 that ``git hash-object`` gives for a file with content ``data``."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _source_of(relpath):
    return str(source(relpath))


def expected(relpath):
    """``(size, sha256, git blob SHA-1)`` recorded for ``relpath``; size and sha256 are None for
    an optional file known by its git blob SHA-1 only (``KeyError``: not a data file)."""
    if relpath in CHECKSUMS:
        return CHECKSUMS[relpath]
    if relpath in OPTIONAL_GIT_BLOBS:
        return None, None, OPTIONAL_GIT_BLOBS[relpath]
    raise KeyError(f"no checksum recorded for {relpath!r}")   # a programming error


def mismatch(relpath, size, sha256, blob):
    """What is wrong with a file of ``size`` bytes and these digests as ``relpath`` (a phrase),
    or None when it matches the record: size and sha256, or the git blob SHA-1 where only that
    is recorded."""
    want_size, want_sha, want_blob = expected(relpath)
    if want_sha is None:
        if blob != want_blob:
            return f"git blob SHA-1 {blob}, expected {want_blob} ({size} bytes)"
        return None
    if size != want_size or sha256 != want_sha:
        what = "truncated or extended" if size != want_size else "modified"
        return (f"{what}: {size} bytes with sha256 {sha256}, expected {want_size} bytes with "
                f"sha256 {want_sha}")
    return None


def read_verified(root, relpath):
    """Return the bytes of ``root/relpath`` after checking them against :data:`CHECKSUMS`.

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    ValueError
        Its size or sha256 differs from the recorded one (corrupted, truncated or another
        version of the file).
    """
    path = os.path.join(os.fspath(root), *relpath.split("/"))
    expected(relpath)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise FileNotFoundError(
            f"data file {path!r} is missing; {_HOWTO}, or copy it unmodified from "
            f"{_source_of(relpath)}") from None
    except OSError as exc:
        raise FileNotFoundError(f"data file {path!r} could not be read: {exc}") from None
    problem = mismatch(relpath, len(data), hashlib.sha256(data).hexdigest(),
                       git_blob_sha1(data))
    if problem:
        raise ValueError(
            f"data file {path!r} failed verification ({problem}). The file is corrupted or a "
            f"different version; replace it with the original from {_source_of(relpath)}: "
            f"{_REPLACE}")
    return data
