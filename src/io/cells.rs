//! CSV cells of a serde-derived record: a serializer that lays a record out as its fields in
//! order (the entries of a flattened map among them), for the CSV writer of `io::export`.
//! One pass collects the names (the header), another writes the values, so the header and
//! the rows come from the same fields as the JSON Lines objects.
//!
//! A value is one cell: numbers in decimal (floats the shortest that reads back, as the `csv`
//! crate writes them; a [`crate::records::rows::Decimal`] in plain decimal), words as they
//! are, no value (`None`, `()`) an empty cell, an enum's unit variant its serde name. A list or
//! a nested record is refused: it has no one cell.

use std::fmt::{self, Display};
use std::io::{self, Write};

use serde::Serialize;
use serde::ser::{self, Impossible};

use crate::records::rows::DECIMAL;

/// Why a record is no CSV row: a value without one cell, or the writer's own error.
#[derive(Debug)]
pub(crate) struct CellError(io::Error);

impl Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for CellError {}

impl ser::Error for CellError {
    fn custom<T: Display>(msg: T) -> Self {
        CellError(io::Error::other(msg.to_string()))
    }
}

impl From<csv::Error> for CellError {
    fn from(e: csv::Error) -> Self {
        CellError(into_io(e))
    }
}

impl From<CellError> for io::Error {
    fn from(e: CellError) -> Self {
        e.0
    }
}

/// A `csv` error as an I/O error (a closed pipe stays one).
pub(crate) fn into_io(e: csv::Error) -> io::Error {
    if e.is_io_error() {
        match e.into_kind() {
            csv::ErrorKind::Io(io) => io,
            other => io::Error::other(format!("{other:?}")),
        }
    } else {
        io::Error::other(e)
    }
}

/// The names of a record's fields, in order.
pub(crate) fn names<R: Serialize + ?Sized>(record: &R) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    record.serialize(Fields::<io::Sink> {
        mode: Mode::Names(&mut names),
    })?;
    Ok(names)
}

/// Writes a record's values as one CSV row (the record's terminator included).
pub(crate) fn write_row<W: Write, R: Serialize + ?Sized>(
    w: &mut csv::Writer<W>,
    record: &R,
) -> io::Result<()> {
    record.serialize(Fields {
        mode: Mode::Cells(&mut *w),
    })?;
    w.write_record(None::<&[u8]>).map_err(into_io)
}

enum Mode<'a, W: Write> {
    Names(&'a mut Vec<String>),
    Cells(&'a mut csv::Writer<W>),
}

/// The record: a struct or a map (a struct with a flattened field is serialized as one).
struct Fields<'a, W: Write> {
    mode: Mode<'a, W>,
}

impl<W: Write> Fields<'_, W> {
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), CellError> {
        if let Mode::Cells(w) = &mut self.mode {
            v.serialize(Cell {
                w: &mut **w,
                plain: false,
            })?;
        }
        Ok(())
    }
}

fn not_a_record<T>() -> Result<T, CellError> {
    Err(ser::Error::custom("a CSV row is a record of fields"))
}

fn no_cell<T>() -> Result<T, CellError> {
    Err(ser::Error::custom(
        "a list or a nested record does not fit in a CSV field",
    ))
}

/// Serializer methods that refuse their value with `$refusal`.
macro_rules! refuse {
    ($refusal:ident; $($method:ident($($arg:ty),*);)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<Self::Ok, CellError> { $refusal() })*
    };
}

impl<'a, W: Write> ser::Serializer for Fields<'a, W> {
    type Ok = ();
    type Error = CellError;
    type SerializeSeq = Impossible<(), CellError>;
    type SerializeTuple = Impossible<(), CellError>;
    type SerializeTupleStruct = Impossible<(), CellError>;
    type SerializeTupleVariant = Impossible<(), CellError>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), CellError>;

    refuse! { not_a_record;
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_i128(i128); serialize_u8(u8); serialize_u16(u16);
        serialize_u32(u32); serialize_u64(u64); serialize_u128(u128); serialize_f32(f32);
        serialize_f64(f64); serialize_char(char); serialize_str(&str); serialize_bytes(&[u8]);
        serialize_none(); serialize_unit(); serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), CellError> {
        v.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), CellError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), CellError> {
        not_a_record()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, CellError> {
        not_a_record()
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, CellError> {
        not_a_record()
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, CellError> {
        not_a_record()
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, CellError> {
        not_a_record()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, CellError> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, CellError> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, CellError> {
        not_a_record()
    }
}

impl<W: Write> ser::SerializeStruct for Fields<'_, W> {
    type Ok = ();
    type Error = CellError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), CellError> {
        if let Mode::Names(names) = &mut self.mode {
            names.push(key.to_string());
        }
        self.value(v)
    }
    fn end(self) -> Result<(), CellError> {
        Ok(())
    }
}

impl<W: Write> ser::SerializeMap for Fields<'_, W> {
    type Ok = ();
    type Error = CellError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), CellError> {
        if let Mode::Names(names) = &mut self.mode {
            let mut k = Vec::new();
            let mut w = csv::WriterBuilder::new().from_writer(&mut k);
            key.serialize(Cell {
                w: &mut w,
                plain: false,
            })?;
            drop(w);
            names.push(String::from_utf8_lossy(&k).into_owned());
        }
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), CellError> {
        self.value(v)
    }
    fn end(self) -> Result<(), CellError> {
        Ok(())
    }
}

/// One value: one cell. `plain`: a float in plain decimal.
struct Cell<'a, W: Write> {
    w: &'a mut csv::Writer<W>,
    plain: bool,
}

impl<W: Write> Cell<'_, W> {
    fn put(self, bytes: impl AsRef<[u8]>) -> Result<(), CellError> {
        Ok(self.w.write_field(bytes)?)
    }
    fn int(self, v: impl itoa::Integer) -> Result<(), CellError> {
        self.put(itoa::Buffer::new().format(v))
    }
    fn float<F: ryu::Float + Display>(self, v: F) -> Result<(), CellError> {
        if self.plain {
            self.put(v.to_string())
        } else {
            self.put(ryu::Buffer::new().format(v))
        }
    }
}

impl<'a, W: Write> ser::Serializer for Cell<'a, W> {
    type Ok = ();
    type Error = CellError;
    type SerializeSeq = Impossible<(), CellError>;
    type SerializeTuple = Impossible<(), CellError>;
    type SerializeTupleStruct = Impossible<(), CellError>;
    type SerializeTupleVariant = Impossible<(), CellError>;
    type SerializeMap = Impossible<(), CellError>;
    type SerializeStruct = Impossible<(), CellError>;
    type SerializeStructVariant = Impossible<(), CellError>;

    fn serialize_bool(self, v: bool) -> Result<(), CellError> {
        self.put(if v { "true" } else { "false" })
    }
    fn serialize_i8(self, v: i8) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), CellError> {
        self.int(v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), CellError> {
        self.float(v)
    }
    fn serialize_f64(self, v: f64) -> Result<(), CellError> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Result<(), CellError> {
        self.put(v.encode_utf8(&mut [0; 4]).as_bytes())
    }
    fn serialize_str(self, v: &str) -> Result<(), CellError> {
        self.put(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), CellError> {
        self.put(v)
    }
    fn serialize_none(self) -> Result<(), CellError> {
        self.put("")
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), CellError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), CellError> {
        self.put("")
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), CellError> {
        self.put("")
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), CellError> {
        self.put(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        v: &T,
    ) -> Result<(), CellError> {
        v.serialize(Cell {
            w: self.w,
            plain: self.plain || name == DECIMAL,
        })
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), CellError> {
        no_cell()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, CellError> {
        no_cell()
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, CellError> {
        no_cell()
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, CellError> {
        no_cell()
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, CellError> {
        no_cell()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, CellError> {
        no_cell()
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, CellError> {
        no_cell()
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, CellError> {
        no_cell()
    }
}
