"""The five source documents (facts from ../shared/seeds/INDEX.md and each document's own title page)."""

from engine.records import Document

DOCUMENTS: tuple[Document, ...] = (
    Document(id="000", file="000_9663887abe972439.txt", edition="tsr-1996",
             title="Dragon Dice revised rules", publisher="TSR, Inc.", year="1996",
             copyright="(c) 1996 TSR, Inc. (per the FAQ header of the same release; the rules text carries no copyright line)"),
    Document(id="001", file="001_6b60ec87d09a2c5b.txt", edition="sfr-v4",
             title="Dragon Dice 2-Player Starter Rules: Treefolk vs Firewalkers (V4.0)", publisher="SFR, Inc.",
             year="2000-2018", copyright="\u00a9 2000-2018 SFR, Inc. All rights reserved."),
    Document(id="002", file="002_994f4b7d91a7d3dd.txt", edition="sfr-2012",
             title="Dragon Dice Rules (Dragon Dice II: Gamer's Edition lineage)", publisher="SFR, Inc.",
             year="2000-2012", copyright="\u00a9 2000-2012 SFR, Inc. All rights reserved."),
    Document(id="003", file="003_1d7538080bb56c20.txt", edition="sfr-v4",
             title="Dragon Dice Multiplayer Rules (V4 era)", publisher="SFR, Inc.", year="V4 era",
             copyright="Dragon Dice\u00ae (registered trademark of SFR, Inc.); the text carries no copyright line"),
    Document(id="004", file="004_8860188c7af3c8f3.txt", edition="tsr-1996",
             title="Official Dragon Dice FAQ and Rules Clarifications, Part Four (v. 0.96)", publisher="TSR, Inc.",
             year="1996", copyright="(C)1996 TSR, Inc. All Rights Reserved."),
)
BY_ID = {d.id: d for d in DOCUMENTS}
